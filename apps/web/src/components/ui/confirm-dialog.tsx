import type { ReactNode } from 'react';
import { DialogActions, type ActionTone } from './dialog-actions';
import { Modal } from './modal';

/** What the dialogs that wrap `ConfirmDialog` are given: the action's state and its two ways out. */
export type ConfirmHandlers = {
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * Asks before an action: the question (`title`, `text`, `children` under them), Cancel, and the
 * action's button — red (`danger`, the default) when it cannot be undone. The chat's new chat and
 * deletions, forgetting memories, deleting a lorebook or one of its entries.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel,
  tone = 'danger',
  pending,
  onConfirm,
  onClose,
  testId,
  children,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  tone?: ActionTone;
  testId: string;
  children?: ReactNode;
} & ConfirmHandlers) {
  return (
    <Modal open={open} onClose={onClose} title={title} description={text} size="sm">
      {children}
      <DialogActions
        className="mt-5 flex flex-wrap justify-end gap-2"
        cancelLabel={cancelLabel}
        onCancel={onClose}
        actionLabel={confirmLabel}
        onAction={onConfirm}
        disabled={pending}
        tone={tone}
        testId={testId}
      />
    </Modal>
  );
}
