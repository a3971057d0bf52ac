import type { Subscription } from '@reverie/shared';

/**
 * The date that matters of a subscription, from the server's view of it (GET
 * /api/subscription, and the admin console's `subscription.view`): when premium ends once it
 * will not renew, else the trial's end during the trial, else the next renewal. One rule for
 * Settings and the console, so both show the same day.
 */
export function subscriptionMilestone(
  sub: Pick<Subscription, 'status' | 'trial_ends_at' | 'renews_at' | 'ends_at'>,
): { kind: 'ends' | 'trial' | 'renews'; date: string } | null {
  if (sub.ends_at !== null) return { kind: 'ends', date: sub.ends_at };
  if (sub.status === 'trialing' && sub.trial_ends_at) return { kind: 'trial', date: sub.trial_ends_at };
  if (sub.renews_at) return { kind: 'renews', date: sub.renews_at };
  return null;
}
