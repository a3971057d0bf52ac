import '../../../lib/error-texts';
import { useTranslation } from '../../../lib/i18n';
import { useZodForm } from '../../../lib/zod-form';
import { useNavigate } from 'react-router';
import { SignupFormSchema, type SignupForm } from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import { AuthFormModal } from './login-modal';
import { signUp } from '../auth-flow';
import {
  applyServerErrors,
  EmailInput,
  FormError,
  PasswordInput,
  SubmitButton,
  SwitchPrompt,
  TextField,
  useErrorText,
} from './form';
import '../texts';

/** `?signup=1`: username, e-mail, password and the 18+ confirmation; then an automatic log-in. */
export default function SignupModal({ onClose, from, next, switchTo }: ModalProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { register, handleSubmit, setError, formState } = useZodForm<SignupForm>(SignupFormSchema, {
    defaultValues: { username: '', email: '', password: '', age_confirmed: false },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const destination = await signUp(
        { username: values.username, email: values.email, password: values.password },
        next,
      );
      navigate(destination, { replace: true });
    } catch (error) {
      applyServerErrors(
        error,
        ['username', 'email', 'password', 'age_confirmed'],
        setError,
        t('errors.something_went_wrong'),
      );
    }
  });

  const ageError = errorText(formState.errors.age_confirmed?.message);
  return (
    <AuthFormModal kind="signup" from={from} onClose={onClose} onSubmit={onSubmit}>
      <TextField
        label={t('auth.username')}
        autoComplete="username"
        error={formState.errors.username?.message}
        {...register('username')}
      />
      <EmailInput error={formState.errors.email?.message} {...register('email')} />
      <PasswordInput error={formState.errors.password?.message} {...register('password')} />
      <div className="flex flex-col gap-1.5">
        <label className="flex items-start gap-3 text-sm leading-snug">
          <input
            type="checkbox"
            className="mt-0.5 size-5 shrink-0 accent-[var(--color-primary)]"
            aria-invalid={ageError ? true : undefined}
            {...register('age_confirmed')}
          />
          <span>{t('auth.age_confirm')}</span>
        </label>
        <p className="pl-8 text-xs text-muted">
          <a
            href="/terms.pdf"
            target="_blank"
            rel="noreferrer"
            className="underline-offset-4 hover:text-fg hover:underline"
          >
            {t('footer.terms')}
          </a>
          {' · '}
          <a
            href="/privacy.pdf"
            target="_blank"
            rel="noreferrer"
            className="underline-offset-4 hover:text-fg hover:underline"
          >
            {t('footer.privacy')}
          </a>
        </p>
        {ageError && (
          <p role="alert" className="text-sm text-red-300" data-field-error="age_confirmed">
            {ageError}
          </p>
        )}
      </div>
      <FormError message={formState.errors.root?.server?.message} />
      <SubmitButton busy={formState.isSubmitting}>{t('auth.signup_submit')}</SubmitButton>
      <SwitchPrompt text={t('auth.have_account')} action={t('auth.login_link')} onClick={() => switchTo('login')} />
    </AuthFormModal>
  );
}
