import '../texts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { CallFailure } from '../call-state';
import { timeFromNow } from '../format';

export interface CallProblemProps {
  failure: CallFailure;
  name: string;
  /** 429: seconds until calling is possible again. */
  retryAfterS?: number | null;
  /** The ways on (try again, upgrade, back to the chat…). */
  actions: ReactNode;
}

/** Why a call could not start, in the reader's language, with what to do about it. */
export function CallProblem({ failure, name, retryAfterS = null, actions }: CallProblemProps) {
  const { t, i18n } = useTranslation();
  const body =
    failure === 'call_minutes_exhausted' && retryAfterS !== null && retryAfterS > 0
      ? t('calls.fail_call_minutes_exhausted_until', { time: timeFromNow(retryAfterS, i18n.language) })
      : t(`calls.fail_${failure}_body`, { name });
  return (
    <div
      className="mx-auto flex w-full max-w-md flex-col items-center gap-3 px-6 py-8 text-center"
      role="alert"
      data-testid="call-problem"
      data-failure={failure}
    >
      <h2 className="text-xl font-semibold">{t(`calls.fail_${failure}_title`, { name })}</h2>
      <p className="text-muted">{body}</p>
      <div className="mt-3 flex flex-wrap justify-center gap-3">{actions}</div>
    </div>
  );
}

/** A pill button, primary or quiet. */
export function CallButton({
  children,
  onClick,
  quiet = false,
  testId,
}: {
  children: ReactNode;
  onClick: () => void;
  quiet?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      className={
        quiet
          ? 'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/10'
          : 'rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary hover:opacity-90'
      }
    >
      {children}
    </button>
  );
}
