import '../../../lib/error-texts';
import { useTranslation } from '../../../lib/i18n';
import { useZodForm } from '../../../lib/zod-form';
import { Link, useNavigate } from 'react-router';
import { LoginBodySchema, type LoginBody } from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import type { FormEventHandler, ReactNode } from 'react';
import { Modal } from '../../../components/ui/modal';
import { loginWithPassword } from '../auth-flow';
import { applyServerErrors, EmailInput, FormError, PasswordInput, SubmitButton, SwitchPrompt } from './form';
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

/** `?login=1`: e-mail and password. */
export default function LoginModal({ onClose, from, next, switchTo }: ModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { register, handleSubmit, setError, formState } = useZodForm<LoginBody>(LoginBodySchema, {
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await loginWithPassword(values.email, values.password);
      if (next) navigate(next, { replace: true });
      else onClose();
    } catch (error) {
      applyServerErrors(error, ['email', 'password'], setError, t('errors.something_went_wrong'));
    }
  });

  return (
    <AuthFormModal kind="login" from={from} onClose={onClose} onSubmit={onSubmit}>
      <EmailInput error={formState.errors.email?.message} {...register('email')} />
      <PasswordInput
        autoComplete="current-password"
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <div className="-mt-2 text-right">
        <Link to="/password" className="text-sm text-muted underline-offset-4 hover:text-fg hover:underline">
          {t('auth.forgot_password')}
        </Link>
      </div>
      <FormError message={formState.errors.root?.server?.message} />
      <SubmitButton busy={formState.isSubmitting}>{t('auth.login_submit')}</SubmitButton>
      <SwitchPrompt text={t('auth.no_account')} action={t('auth.create_account')} onClick={() => switchTo('signup')} />
    </AuthFormModal>
  );
}
