// Every one of these buttons has a border (transparent but for the outlined one): side by side in
// a row they are one height and their texts share a baseline.

/** A dialog's quiet button (Cancel, Back). */
export const secondaryButtonClass = 'rounded-full border border-transparent px-4 py-2 text-sm text-muted hover:text-fg';

/** A dialog's outlined button with its icon, under a list (add a character, leave the scene). */
export const outlineButtonClass =
  'flex items-center gap-2 self-start rounded-full border border-white/15 px-4 py-2 text-sm hover:bg-white/5';

/** A dialog's main button. */
export const primaryButtonClass =
  'rounded-full border border-transparent bg-primary px-5 py-2 text-sm font-semibold text-on-primary disabled:opacity-50';

/** A dialog's main button: the app's colour, or red (`danger`) for what cannot be undone. */
export const actionButtonClass = {
  primary: primaryButtonClass,
  danger:
    'rounded-full border border-transparent bg-red-500 px-5 py-2 text-sm font-semibold text-white disabled:opacity-50',
};
export type ActionTone = keyof typeof actionButtonClass;

/**
 * The last row of a dialog or a dialog's form: Cancel, then the action. Without `onAction` the
 * action submits the form it stands in. The confirmations, the lorebook entry, memory, report and
 * chat text forms.
 */
export function DialogActions({
  cancelLabel,
  onCancel,
  actionLabel,
  onAction,
  disabled,
  tone = 'primary',
  testId,
  className = 'flex justify-end gap-2',
}: {
  cancelLabel: string;
  onCancel: () => void;
  actionLabel: string;
  onAction?: () => void;
  disabled?: boolean;
  tone?: ActionTone;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" onClick={onCancel} className={secondaryButtonClass}>
        {cancelLabel}
      </button>
      <button
        type={onAction ? 'button' : 'submit'}
        onClick={onAction}
        disabled={disabled}
        data-testid={testId}
        className={actionButtonClass[tone]}
      >
        {actionLabel}
      </button>
    </div>
  );
}
