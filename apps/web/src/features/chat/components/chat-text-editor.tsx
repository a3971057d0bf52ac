import { showAlert } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { useTranslation } from '../../../lib/i18n';

/**
 * The pieces the chat's text dialogs share (the author's note, the chat summary; their loading is
 * `DialogListState`): the save that says so and closes, and the Cancel and Save buttons.
 */

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
