import '../../lib/error-texts';
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { useNavigate, useSearchParams } from 'react-router';
import { MailCheck } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { Modal } from '../../components/ui/modal';
import { showAlert } from '../../components/ui/alerts';
import { Skeleton } from '../../components/ui/page';
import { requestVerification } from '../../features/auth';
import { activateEmail } from '../../features/auth/api/verification';
import { FormError } from '../../features/auth/components/form';
import { setProfileData, useProfile } from '../../lib/profile';
import { ApiRequestError } from '../../lib/api-client';
import '../../features/auth/texts';

/** `/verify?code=…` confirms the e-mail; `/verify` alone prompts and offers to resend. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const { profile } = useProfile();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'checking' | 'done' | 'invalid'>(code ? 'checking' : 'idle');
  const [error, setError] = useState('');
  const [resending, setResending] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (!code || started.current) return;
    started.current = true;
    activateEmail(code).then(
      () => {
        // The window itself says it worked (its title and text): no toast saying it again.
        setProfileData(queryClient, (p) => ({ ...p, is_email_confirmed: true }));
        setState('done');
      },
      (e) => {
        setError(e instanceof ApiRequestError && e.data?.detail ? e.data.detail : t('errors.invalid_code'));
        setState('invalid');
      },
    );
  }, [code, queryClient, t]);

  // Without a code, ask for the mail once (only if none was requested before).
  useEffect(() => {
    if (!code && profile && !profile.is_email_confirmed)
      void requestVerification(profile, false).catch(() => undefined);
  }, [code, profile]);

  const resend = async () => {
    setResending(true);
    try {
      const result = await requestVerification(profile, true);
      showAlert(result?.sent ? t('auth.verification_sent') : t('auth.verification_not_sent'));
    } catch (e) {
      showAlert(e instanceof ApiRequestError && e.data?.detail ? e.data.detail : t('errors.something_went_wrong'), {
        type: 'error',
      });
    } finally {
      setResending(false);
    }
  };

  const close = () => navigate('/', { replace: true });
  const confirmed = state === 'done' || (state === 'idle' && profile?.is_email_confirmed);
  return (
    <Modal open onClose={close} title={t(confirmed ? 'pages.verified_title' : 'pages.verify_title')}>
      <div className="flex flex-col gap-4" data-testid="verify-step" data-state={confirmed ? 'done' : state}>
        {state === 'checking' && (
          <>
            <p className="text-sm text-muted">{t('auth.verify_checking')}</p>
            <Skeleton className="h-12" />
          </>
        )}
        {confirmed && (
          <div className="flex flex-col items-center gap-3 text-center">
            <Icon icon={MailCheck} size="xxl" className="text-primary" />
            <p className="font-semibold">{t('auth.email_confirmed')}</p>
            <button
              type="button"
              onClick={close}
              className="w-full rounded-full bg-primary px-6 py-3 font-semibold text-on-primary"
            >
              {t('auth.continue')}
            </button>
          </div>
        )}
        {state === 'invalid' && <FormError message={error} />}
        {!confirmed && state !== 'checking' && (
          <>
            {profile && <p className="text-sm text-muted">{t('auth.verify_prompt', { email: profile.email })}</p>}
            <button
              type="button"
              onClick={resend}
              disabled={resending || !profile}
              className="rounded-full border border-white/15 px-6 py-3 font-semibold hover:bg-white/5 disabled:opacity-60"
            >
              {t('auth.resend')}
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}
