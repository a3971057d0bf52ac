import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { createPaymentProviders } from '../../providers/payments/index.js';
import { createTestApp, testConfig } from '../../../test/helpers.js';
import { createUser, deleteAccount } from '../../../test/factories.js';

/** Subscribes through the sandbox checkout, as the web app does. */
async function subscribe(t: Awaited<ReturnType<typeof createTestApp>>, auth: Record<string, string>) {
  const checkout = await t.app.inject({
    method: 'POST',
    url: '/api/subscription/create_stripe/',
    headers: auth,
    payload: { plan: 'monthly' },
  });
  // The sandbox page's Approve: an API call of the signed-in payer.
  const id = new URL(checkout.json().url).pathname.split('/').pop()!;
  await t.app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve`, headers: auth });
  expect((await t.app.inject({ url: '/api/profile', headers: auth })).json().has_subscription).toBe(true);
}

describe('deleting an account with a running subscription', async () => {
  const payments = createPaymentProviders(testConfig());
  const cancelled: string[] = [];
  let failCancel = false;
  const sandbox = payments.byId.sandbox!;
  const original = sandbox.cancelSubscription.bind(sandbox);
  sandbox.cancelSubscription = async (id: string) => {
    if (failCancel) throw new Error('provider down');
    cancelled.push(id);
    await original(id);
  };
  const t = await createTestApp({ payments });

  it('cancels the subscription at the provider, then deletes everything', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    await subscribe(t, auth);
    failCancel = false;
    const before = cancelled.length;
    const res = await deleteAccount(t.app, t.database.db, user.id, auth);
    expect(res.statusCode).toBe(204);
    expect(cancelled.length).toBe(before + 1);
    expect(await t.database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
  });

  it('deletes nothing when the provider cannot cancel, and says so', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    await subscribe(t, auth);
    failCancel = true;
    const res = await deleteAccount(t.app, t.database.db, user.id, auth);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('subscription_cancel_failed');
    expect(await t.database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
    failCancel = false;
  });
});
