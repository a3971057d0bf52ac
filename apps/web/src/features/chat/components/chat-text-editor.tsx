import { showAlert } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { useTranslation } from '../../../lib/i18n';

/**
 * The pieces the chat's text dialogs share (the author's note, the chat summary; their loading is
 * `DialogListState`): the save that says so and closes, and the Cancel and Save buttons.
 */

/** The look of the text dialogs' fields. */
export const textField =
  'rounded-xl border border-white/10 bg-bg px-3 py-2 leading-relaxed focus:border-primary/60 focus:outline-none';

/** A text dialog's text, at most `max` characters; `minHeight` its least height (a Tailwind class). */
export function DialogTextArea({
  value,
  onChange,
  max,
  rows,
  placeholder,
  testId,
  minHeight,
}: {
  value: string;
  onChange: (value: string) => void;
  max: number;
  rows: number;
  placeholder: string;
  testId: string;
  minHeight: string;
}) {
  return (
    <textarea
      value={value}
      onChange={(event) => onChange(event.target.value)}
      maxLength={max}
      rows={rows}
      placeholder={placeholder}
      data-testid={testId}
      className={`${minHeight} resize-y ${textField}`}
    />
  );
}

/** Saves; on success says `savedMessage` and closes (`onDone`), on failure says so and stays. */
export function useSaveAndClose(save: () => Promise<unknown>, savedMessage: string, onDone: () => void) {
  const { t } = useTranslation();
  return async () => {
    try {
      await save();
      showAlert(savedMessage);
      onDone();
    } catch {
      showAlert(t('chat.save_failed'), { type: 'error' });
    }
  };
}

/** Cancel (closes) and Save, in a row (`className`). */
export function CancelSaveButtons({
  onCancel,
  onSave,
  disabled,
  testId,
  className,
}: {
  onCancel: () => void;
  onSave: () => Promise<void>;
  disabled: boolean;
  testId?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <DialogActions
      className={className}
      cancelLabel={t('chat.cancel')}
      onCancel={onCancel}
      actionLabel={t('chat.save')}
      onAction={() => void onSave()}
      disabled={disabled}
      testId={testId}
    />
  );
}
