import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { ShieldCheck } from 'lucide-react';
import { STORAGE_KEYS } from '@reverie/shared';
import { Icon } from '../../components/ui/icon';
import { Logo } from '../../components/ui/logo';
import { useSession } from '../../lib/session';
import { currentEdition } from '../../lib/edition';
import { storage } from '../../lib/storage';
import { LanguagePicker } from './language-picker';

export const isAgeConfirmed = () => storage.get(STORAGE_KEYS.ageConfirmed) === '1';

/**
 * Pages that show no adult content and must open for anyone: the takedown form (issue 27) —
 * a reporter needs no account and no age confirmation to ask for content to be removed.
 */
const UNGATED_PATHS: ReadonlySet<string> = new Set(['/takedown']);

/** Whether a path opens without the age gate (a trailing slash ignored). */
export const isUngatedPath = (pathname: string) => UNGATED_PATHS.has(pathname.replace(/(.)\/+$/, '$1'));

/**
 * A guest confirms being 18 or older before any content shows (PRODUCT.md §6). Members
 * confirmed it at sign-up. The takedown form opens without it (`UNGATED_PATHS`); moving on
 * from there to any other page shows the gate.
 */
export function AgeGate({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { pathname } = useLocation();
  const [confirmed, setConfirmed] = useState(isAgeConfirmed);
  if (confirmed || isAuthorized || isUngatedPath(pathname)) return <>{children}</>;
  return (
    <div
      className="fixed inset-0 z-[70] flex items-center justify-center overflow-y-auto bg-bg p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="age-gate-title"
      data-testid="age-gate"
    >
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,var(--color-primary)_0,transparent_45%),radial-gradient(circle_at_80%_80%,var(--color-secondary)_0,transparent_40%)] opacity-25" />
      <div className="relative w-full max-w-md rounded-3xl border border-white/10 bg-surface/95 p-8 text-center shadow-2xl">
        <div className="mb-6 flex justify-center">
          <Logo />
        </div>
        <Icon icon={ShieldCheck} size="xxl" className="mx-auto mb-4 text-primary" />
        <h1 id="age-gate-title" className="text-2xl font-semibold">
          {t('age_gate.title')}
        </h1>
        <p className="mt-3 text-sm leading-relaxed text-muted">{t('age_gate.text', { name: currentEdition().name })}</p>
        <div className="mt-6 flex flex-col gap-3">
          <button
            type="button"
            autoFocus
            onClick={() => {
              storage.set(STORAGE_KEYS.ageConfirmed, '1');
              setConfirmed(true);
            }}
            className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
          >
            {t('age_gate.confirm')}
          </button>
          <a
            href="https://www.google.com"
            rel="noreferrer"
            className="rounded-full px-6 py-3 text-sm text-muted hover:bg-white/5 hover:text-fg"
          >
            {t('age_gate.leave')}
          </a>
        </div>
        <p className="mt-6 text-xs text-muted">{t('age_gate.note')}</p>
        <div className="mt-6 flex justify-center">
          <LanguagePicker />
        </div>
      </div>
    </div>
  );
}
