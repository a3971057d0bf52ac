import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';

describe('GET /api/profile with billing', async () => {
  const t = await createTestApp();

  it('shows the balance after a daily claim and when the next claim opens', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const before = (await t.app.inject({ url: '/api/profile', headers: auth })).json();
    expect(before).toMatchObject({ num_tokens: 0, has_subscription: false, subscription: null, next_claim_at: null });

    const claim = await t.app.inject({ method: 'POST', url: '/api/profile/claim_desires', headers: auth });
    expect(claim.json()).toMatchObject({ claimed: true, num_tokens: 100 });

    const after = (await t.app.inject({ url: '/api/profile', headers: auth })).json();
    expect(after.num_tokens).toBe(100);
    expect(after.next_claim_at).toBe(claim.json().next_at);
  });

  it('shows premium, with the 100 desires of activation, once a sandbox subscription is paid', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe/',
      headers: auth,
      payload: { plan: 'monthly' },
    });
    expect(checkout.statusCode).toBe(200);
    // The sandbox page's Approve: an API call of the signed-in payer.
    const id = new URL(checkout.json().url).pathname.split('/').pop()!;
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${id}/approve`,
      headers: auth,
    });
    expect(approve.json()).toEqual({ status: 'paid', refunded: false });
    const profile = (await t.app.inject({ url: '/api/profile', headers: auth })).json();
    expect(profile.has_subscription).toBe(true);
    expect(profile.subscription).toMatchObject({ plan: 'monthly' });
    expect(profile.num_tokens).toBe(100);
  });
});
