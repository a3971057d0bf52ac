import '../../../lib/error-texts';
import { Gift, Loader2, Timer } from 'lucide-react';
import { DAILY_CLAIM_AMOUNT } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { useTranslation } from '../../../lib/i18n';
import { peekWaitingAction, takeWaitingAction } from '../../../lib/waiting-action';
import { formatClaimCountdown, useDailyClaim } from '../use-daily-claim';
import '../texts';

/**
 * The free daily claim, offered before the shop (issue 26): while a claim is available, one
 * tap claims it (no confirmation) and, when an action is waiting for desires (`from` unblur or
 * transform, `lib/waiting-action.ts`) and the balance now covers it, the modal closes and the
 * action runs again at once. While waiting, the time until the next claim.
 */
export function ClaimOffer({ from, onDone }: { from: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const daily = useDailyClaim();

  if (!daily.available)
    return (
      <p className="flex items-center gap-2 text-sm text-muted tabular-nums" data-testid="claim-offer-next">
        <Icon icon={Timer} size="sm" />
        {t('billing.claim_offer_next', { time: formatClaimCountdown(daily.remainingMs) })}
      </p>
    );

  const claim = async () => {
    try {
      const result = await daily.claim();
      if (!result.claimed) {
        showAlert(t('claim.already', { time: formatClaimCountdown(new Date(result.next_at).getTime() - Date.now()) }), {
          type: 'info',
        });
        return;
      }
      showAlert(t('claim.claimed', { count: DAILY_CLAIM_AMOUNT }));
      const waiting = peekWaitingAction(from);
      if (waiting && result.num_tokens >= waiting.cost) {
        takeWaitingAction(from);
        onDone();
        waiting.run();
      }
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    }
  };

  const waiting = peekWaitingAction(from);
  const then =
    waiting?.from === 'unblur'
      ? t('billing.claim_offer_unblur')
      : waiting?.from === 'transform'
        ? t('billing.claim_offer_transform')
        : t('billing.claim_offer_text');

  return (
    <div className="rounded-2xl border border-primary/60 bg-primary/10 p-4" data-testid="claim-offer">
      <p className="flex items-center gap-2 font-semibold">
        <Icon icon={Gift} size="md" className="text-primary" />
        {t('billing.claim_offer_title')}
      </p>
      <p className="mt-1 text-sm text-muted">{then}</p>
      <button
        type="button"
        disabled={daily.busy}
        onClick={() => void claim()}
        data-testid="claim-offer-button"
        className="mt-3 flex w-full items-center justify-center gap-2 rounded-xl bg-primary px-4 py-3 font-semibold text-on-primary shadow-lg shadow-primary/25 hover:brightness-110 disabled:opacity-60"
      >
        <Icon icon={daily.busy ? Loader2 : Gift} size="md" className={daily.busy ? 'animate-spin' : ''} />
        {t('claim.button', { count: DAILY_CLAIM_AMOUNT })}
      </button>
    </div>
  );
}
