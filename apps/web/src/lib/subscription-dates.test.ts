import { describe, expect, it } from 'vitest';
import { subscriptionMilestone } from './subscription-dates';

describe('subscriptionMilestone (Settings and the admin console alike)', () => {
  const base = { trial_ends_at: null, renews_at: null, ends_at: null };
  it('in the trial: the trial end, not the first renewal after it', () => {
    expect(
      subscriptionMilestone({
        ...base,
        status: 'trialing',
        trial_ends_at: '2026-11-30T00:00:00Z',
        renews_at: '2026-12-30T00:00:00Z',
      }),
    ).toEqual({ kind: 'trial', date: '2026-11-30T00:00:00Z' });
  });
  it('cancelled: when premium ends; renewing: the renewal; neither: nothing', () => {
    expect(subscriptionMilestone({ ...base, status: 'cancelled', ends_at: '2026-11-30T00:00:00Z' })).toEqual({
      kind: 'ends',
      date: '2026-11-30T00:00:00Z',
    });
    expect(subscriptionMilestone({ ...base, status: 'active', renews_at: '2027-01-01T00:00:00Z' })).toEqual({
      kind: 'renews',
      date: '2027-01-01T00:00:00Z',
    });
    expect(subscriptionMilestone({ ...base, status: 'active' })).toBeNull();
  });
});
