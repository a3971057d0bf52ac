import '../../lib/error-texts';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useZodForm } from '../../lib/zod-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { EmailField, PasswordSetBodySchema, type PasswordSetBody } from '@reverie/shared';
import { Modal } from '../../components/ui/modal';
import { Skeleton } from '../../components/ui/page';
import { requestPasswordReset, setNewPassword, validateResetToken } from '../../features/auth/api/password-reset';
import {
  applyServerErrors,
  EmailInput,
  FormError,
  PasswordInput,
  SubmitButton,
} from '../../features/auth/components/form';
import '../../features/auth/texts';

const RequestSchema = z.object({ email: EmailField });

/** How a step ended: the server's message (or an error) and where to go from there. */
function StepOutcome({
  testId,
  note,
  error,
  children,
}: {
  testId: string;
  note?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4" data-testid={testId}>
      {note && (
        <p className="rounded-xl border border-emerald-400/30 bg-emerald-950/60 px-4 py-3 text-sm text-emerald-50">
          {note}
        </p>
      )}
      <FormError message={error} />
      {children}
    </div>
  );
}

/** `/password`: ask for a reset link by e-mail. */
function RequestStep() {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useZodForm<{ email: string }>(RequestSchema, {
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      setSent((await requestPasswordReset(email)).detail);
    } catch (error) {
      applyServerErrors(error, ['email'], setError, t('errors.something_went_wrong'));
    }
  });
  if (sent) {
    return (
      <StepOutcome testId="reset-sent" note={sent}>
        <Link to="/?login=1" className="text-center text-sm font-semibold text-primary hover:underline">
          {t('auth.back_to_login')}
        </Link>
      </StepOutcome>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="reset-request-form">
      <p className="text-sm text-muted">{t('auth.password_request_text')}</p>
      <EmailInput error={formState.errors.email?.message} {...register('email')} />
      <FormError message={formState.errors.root?.server?.message} />
      <SubmitButton busy={formState.isSubmitting}>{t('auth.password_request_submit')}</SubmitButton>
      <Link to="/?login=1" className="text-center text-sm text-muted hover:text-fg hover:underline">
        {t('auth.back_to_login')}
      </Link>
    </form>
  );
}

/** `/password?token=…`: the link from the mail; set a new password once. */
function SetStep({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, setState] = useState<'checking' | 'valid' | 'invalid' | 'done'>('checking');
  const [doneText, setDoneText] = useState('');
  const { register, handleSubmit, setError, formState } = useZodForm<PasswordSetBody>(PasswordSetBodySchema, {
    defaultValues: { password: '', password_confirm: '' },
  });
  useEffect(() => {
    let live = true;
    validateResetToken(token).then(
      () => live && setState('valid'),
      () => live && setState('invalid'),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const onSubmit = handleSubmit(async (values) => {
    try {
      setDoneText((await setNewPassword(token, values.password, values.password_confirm)).detail);
      setState('done');
    } catch (error) {
      applyServerErrors(error, ['password', 'password_confirm'], setError, t('errors.something_went_wrong'));
    }
  });
  if (state === 'checking') return <Skeleton className="h-40" />;
  if (state === 'invalid') {
    return (
      <StepOutcome testId="reset-invalid" error={t('errors.invalid_token')}>
        <Link to="/password" className="text-center text-sm font-semibold text-primary hover:underline">
          {t('auth.request_new_link')}
        </Link>
      </StepOutcome>
    );
  }
  if (state === 'done') {
    return (
      <StepOutcome testId="reset-done" note={doneText}>
        <button
          type="button"
          onClick={() => navigate('/?login=1', { replace: true })}
          className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary"
        >
          {t('auth.login_submit')}
        </button>
      </StepOutcome>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="reset-set-form">
      <p className="text-sm text-muted">{t('auth.password_set_text')}</p>
      <PasswordInput
        label={t('auth.new_password')}
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <PasswordInput
        label={t('auth.password_confirm')}
        error={formState.errors.password_confirm?.message}
        {...register('password_confirm')}
      />
      <FormError message={formState.errors.root?.server?.message} />
      <SubmitButton busy={formState.isSubmitting}>{t('auth.password_set_submit')}</SubmitButton>
    </form>
  );
}

/** The password step of the landing page, shown as a dialog over Explore. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <Modal open onClose={() => navigate('/', { replace: true })} title={t('pages.password_title')}>
      {token ? <SetStep token={token} /> : <RequestStep />}
    </Modal>
  );
}
