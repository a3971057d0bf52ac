import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { ModalProps } from '../../../lib/modals';
import { Modal } from '../../../components/ui/modal';
import '../texts';

/**
 * The log-in and sign-up dialogs' frame: the title, the subtitle (another one when the visitor
 * came from a chat) and the form (`${kind}-form`) that holds the fields.
 */
export function AuthFormModal({
  kind,
  from,
  onClose,
  onSubmit,
  children,
}: Pick<ModalProps, 'from' | 'onClose'> & {
  kind: 'login' | 'signup';
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      onClose={onClose}
      title={t(`modal.${kind}_title`)}
      description={t(from === 'chat' ? `auth.${kind}_subtitle_chat` : `auth.${kind}_subtitle`)}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid={`${kind}-form`}>
        {children}
      </form>
    </Modal>
  );
}
