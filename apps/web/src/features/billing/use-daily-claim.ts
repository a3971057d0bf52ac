import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DAILY_CLAIM_INTERVAL_MS, type ClaimDesiresResponse } from '@reverie/shared';
import { setProfileData, useProfile } from '../../lib/profile';
import { claimDesires } from './api/claim-desires';
import { formatCountdown } from './format';

/**
 * The countdown to the next claim as hh:mm:ss: never more than the claim's own period
 * (a client clock behind the server's would otherwise show 24:00:08), whole seconds rounded
 * up so that 00:00:00 is never shown while still waiting: at most 23:59:59, at least 00:00:01.
 */
export function formatClaimCountdown(ms: number): string {
  return formatCountdown(Math.min(Math.max(0, ms), DAILY_CLAIM_INTERVAL_MS - 1000));
}

/** Re-renders every second while `active`. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * The daily claim's state and action, shared by Explore's card and the buy-desires modal:
 * whether a claim is available, the time left until the next, and `claim()` (the balance and
 * `next_claim_at` in the profile are updated from the answer).
 */
export function useDailyClaim() {
  const { profile } = useProfile();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const nextAt = profile?.next_claim_at ?? null;
  const waiting = nextAt !== null && new Date(nextAt).getTime() > Date.now();
  const now = useNow(waiting);
  const remainingMs = nextAt ? Math.max(0, new Date(nextAt).getTime() - now) : 0;

  const claim = async (): Promise<ClaimDesiresResponse> => {
    setBusy(true);
    try {
      const result = await claimDesires();
      setProfileData(queryClient, (p) => ({ ...p, num_tokens: result.num_tokens, next_claim_at: result.next_at }));
      return result;
    } finally {
      setBusy(false);
    }
  };

  return { available: profile !== null && remainingMs <= 0, remainingMs, busy, claim };
}
