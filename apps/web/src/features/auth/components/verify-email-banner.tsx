import '../texts';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { MailWarning, X } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import { useProfile } from '../../../lib/profile';

/** Users with an unverified e-mail are prompted to verify (spec §6). */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const { profile } = useProfile();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState(false);
  if (!profile || profile.is_email_confirmed || dismissed || pathname === '/verify' || pathname === '/welcome')
    return null;
  return (
    <div
      role="status"
      data-testid="verify-banner"
      className="fixed inset-x-3 bottom-20 z-40 mx-auto flex max-w-xl items-center gap-3 rounded-2xl border border-amber-400/30 bg-amber-950/90 px-4 py-3 text-sm text-amber-50 shadow-xl backdrop-blur md:bottom-4"
    >
      <Icon icon={MailWarning} size="md" className="shrink-0" />
      <p className="flex-1">{t('auth.verify_banner')}</p>
      <Link
        to="/verify"
        className="rounded-full bg-amber-200 px-3 py-1.5 font-semibold text-amber-950 hover:bg-amber-100"
      >
        {t('auth.verify_banner_action')}
      </Link>
      <button
        type="button"
        onClick={() => setDismissed(true)}
        className="-m-1 rounded-full p-1 hover:bg-white/10"
        aria-label={t('app.close')}
      >
        <Icon icon={X} size="sm" />
      </button>
    </div>
  );
}
