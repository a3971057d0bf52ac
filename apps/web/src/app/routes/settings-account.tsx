import '../../lib/error-texts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  DeleteAccountBodySchema,
  PasswordChangeFormSchema,
  type DeleteAccountBody,
  type PasswordChangeForm,
} from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { Modal } from '../../components/ui/modal';
import { logout } from '../../features/auth';
import { changePassword } from '../../features/auth/api/change-password';
import { deleteProfile } from '../../features/auth/api/delete-profile';
import { applyServerErrors, FormError, PasswordInput, SubmitButton } from '../../features/auth/components/form';
import { useTranslation } from '../../lib/i18n';
import { useZodForm } from '../../lib/zod-form';
import './settings-texts';

const buttonSecondary =
  'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5 disabled:opacity-60';

/**
 * Settings' "Change password" (issue 27): the current password, the new one twice (the
 * sign-up's rules); the server signs out every other session and keeps this one.
 */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const { register, handleSubmit, setError, reset, formState } = useZodForm<PasswordChangeForm>(
    PasswordChangeFormSchema,
    { defaultValues: { current_password: '', new_password: '', new_password_confirm: '' } },
  );
  const onSubmit = handleSubmit(async ({ current_password, new_password }) => {
    try {
      const { detail } = await changePassword({ current_password, new_password });
      reset();
      showAlert(detail || t('settings.password_changed'));
    } catch (error) {
      applyServerErrors(error, ['current_password', 'new_password'], setError, t('errors.something_went_wrong'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="password-form">
      <PasswordInput
        label={t('settings.password_current')}
        autoComplete="current-password"
        error={formState.errors.current_password?.message}
        {...register('current_password')}
      />
      <PasswordInput
        label={t('settings.password_new')}
        error={formState.errors.new_password?.message}
        {...register('new_password')}
      />
      <PasswordInput
        label={t('settings.password_confirm')}
        error={formState.errors.new_password_confirm?.message}
        {...register('new_password_confirm')}
      />
      <FormError message={formState.errors.root?.server?.message} testId="password-form-error" />
      <SubmitButton busy={formState.isSubmitting} className="sm:w-auto sm:self-start">
        {t('settings.password_button')}
      </SubmitButton>
    </form>
  );
}

/** "Delete all data": a confirmation that asks for the account's password (issue 27). */
export function DeleteAllData() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, setError, reset, formState } = useZodForm<DeleteAccountBody>(
    DeleteAccountBodySchema,
    { defaultValues: { password: '' } },
  );
  const close = () => {
    setOpen(false);
    reset();
  };
  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await deleteProfile({ password });
      setOpen(false);
      await logout();
      queryClient.clear();
      showAlert(t('settings.deleted'));
      navigate('/', { replace: true });
    } catch (error) {
      applyServerErrors(error, ['password'], setError, t('errors.something_went_wrong'));
    }
  });
  return (
    <>
      <p className="mb-4 text-sm text-muted">{t('settings.delete_text')}</p>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-full bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-500"
      >
        {t('settings.delete_button')}
      </button>
      <Modal open={open} onClose={close} title={t('settings.delete_confirm_title')} size="sm">
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="delete-form">
          <p className="text-sm text-muted">{t('settings.delete_confirm_text')}</p>
          <PasswordInput
            label={t('settings.delete_password')}
            autoComplete="current-password"
            hint={<p className="text-xs text-muted">{t('settings.delete_password_hint')}</p>}
            error={formState.errors.password?.message}
            {...register('password')}
          />
          <FormError message={formState.errors.root?.server?.message} testId="delete-form-error" />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button type="button" onClick={close} className={buttonSecondary}>
              {t('settings.cancel')}
            </button>
            <button
              type="submit"
              disabled={formState.isSubmitting}
              className="rounded-full bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-500 disabled:opacity-60"
            >
              {t('settings.delete_confirm')}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
