import '../texts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Gift, Loader2, Timer } from 'lucide-react';
import { DAILY_CLAIM_AMOUNT } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { setProfileData, useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';
import { claimDesires } from '../api/claim-desires';
import { formatClaimCountdown, useNow } from '../use-daily-claim';

/**
 * The daily claim (spec §4): a button, a confirmation, then the balance rises by 100 at
 * once and a countdown runs to the next claim.
 */
export function DailyClaim() {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const queryClient = useQueryClient();
  const [localNextAt, setLocalNextAt] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const nextAt = localNextAt ?? profile?.next_claim_at ?? null;
  const waiting = nextAt !== null && new Date(nextAt).getTime() > Date.now();
  const now = useNow(waiting);
  if (!isAuthorized) return null;
  const remaining = nextAt ? new Date(nextAt).getTime() - now : 0;

  const claim = async () => {
    setBusy(true);
    try {
      const result = await claimDesires();
      setLocalNextAt(result.next_at);
      setProfileData(queryClient, (p) => ({ ...p, num_tokens: result.num_tokens, next_claim_at: result.next_at }));
      if (result.claimed) showAlert(t('claim.claimed', { count: DAILY_CLAIM_AMOUNT }));
      else
        showAlert(t('claim.already', { time: formatClaimCountdown(new Date(result.next_at).getTime() - Date.now()) }), {
          type: 'info',
        });
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-2xl border border-white/10 bg-surface px-4 py-3"
      data-testid="daily-claim"
    >
      <span className="rounded-xl bg-primary/15 p-2 text-primary">
        <Icon icon={Gift} size="lg" />
      </span>
      <span className="mr-auto font-semibold">{t('claim.title')}</span>
      {remaining > 0 ? (
        <span className="flex items-center gap-2 text-sm text-muted tabular-nums" data-testid="claim-countdown">
          <Icon icon={Timer} size="sm" />
          {t('claim.next_in', { time: formatClaimCountdown(remaining) })}
        </span>
      ) : (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          data-testid="claim-button"
          className="rounded-full bg-primary px-4 py-2 text-sm font-semibold text-on-primary shadow-lg shadow-primary/25 hover:brightness-110"
        >
          {t('claim.button', { count: DAILY_CLAIM_AMOUNT })}
        </button>
      )}
      <Modal open={confirming} onClose={() => setConfirming(false)} title={t('claim.title')} size="sm">
        <p className="text-muted">{t('claim.confirm_text', { count: DAILY_CLAIM_AMOUNT })}</p>
        <div className="mt-5 grid grid-cols-2 gap-2">
          <button
            type="button"
            onClick={() => setConfirming(false)}
            className="rounded-xl border border-white/10 px-4 py-2.5 text-sm font-medium text-muted hover:text-fg"
          >
            {t('claim.cancel')}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void claim()}
            data-testid="claim-confirm"
            className="flex items-center justify-center gap-2 rounded-xl bg-primary px-4 py-2.5 text-sm font-semibold text-on-primary disabled:opacity-60"
          >
            {busy && <Icon icon={Loader2} size="sm" className="animate-spin" />}
            {t('claim.confirm')}
          </button>
        </div>
      </Modal>
    </div>
  );
}
