import { useState, type ReactNode } from 'react';
import { Modal } from '../../../components/ui/modal';
import { ReasonForm } from './reason-form';

/**
 * A confirmation dialog for an admin write: the console's `ReasonForm` (a reason required
 * unless `reason="optional"`, absent with `reason="none"`) in a dialog that cannot be closed
 * while the write runs and closes on success. A closed dialog unmounts its form, so each
 * opening starts empty.
 */
export function ConfirmAction({
  open,
  title,
  description,
  onClose,
  testId = 'confirm-action',
  ...form
}: {
  open: boolean;
  title: string;
  description?: string;
  confirmLabel: string;
  danger?: boolean;
  reason?: 'required' | 'optional' | 'none';
  reasonLabel?: string;
  children?: ReactNode;
  disabled?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
  testId?: string;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal open={open} onClose={() => !busy && onClose()} title={title} description={description} size="md">
      <ReasonForm {...form} testId={testId} onBusyChange={setBusy} onDone={onClose} onCancel={onClose} />
    </Modal>
  );
}
