import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileSchema, type Profile } from '@reverie/shared';
import { rowsOf } from '../../db/client.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { balanceOf, expectLedgerMatchesBalances, grantDesires } from '../../../test/billing-helpers.js';
import { signSandboxPayload } from '../../providers/payments/sandbox.js';
import { debitDesires } from './index.js';

const SANDBOX_SECRET = 'sandbox-secret-for-tests-0123456789';

describe('billing', async () => {
  const { app, database } = await createTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET } });
  const db = database.db;

  afterEach(async () => {
    await expectLedgerMatchesBalances(db);
  });

  /** The profile as the accounts presenter will build it (its own fields plus ours). */
  const profileOf = async (userId: string): Promise<Profile> => {
    const [u] = rowsOf<{ id: string; name: string; email: string }>(
      await db.execute(sql`select id, name, email from users where id = ${userId}`),
    );
    return ProfileSchema.parse({
      id: u!.id,
      name: u!.name,
      age: null,
      email: u!.email,
      is_email_confirmed: false,
      locale: 'en',
      role: 'user',
      ...(await app.billing.getBillingProfile(userId)),
    });
  };

  const sandboxWebhook = (body: string, signature = signSandboxPayload(SANDBOX_SECRET, body)) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/webhook/sandbox',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      payload: body,
    });

  const checkout = async (auth: Record<string, string>, plan: string, path = 'create_stripe') => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/subscription/${path}/`,
      headers: auth,
      payload: { plan },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url as string);
    const id = url.pathname.split('/').pop()!;
    return { url, id };
  };

  /** The sandbox page's buttons: authenticated API calls of the payer. */
  const decide = (auth: Record<string, string>, id: string, verb: 'approve' | 'decline') =>
    app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/${verb}`, headers: auth });

  it('GET /api/billing/plans lists plans, packs and the offer in integer cents', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/billing/plans' });
    expect(res.statusCode).toBe(200);
    const plans = res.json();
    expect(plans.currency).toBe('usd');
    expect(plans.subscriptions).toEqual([
      expect.objectContaining({ id: 'monthly', amount_cents: 1299, trial_days: 3 }),
      expect.objectContaining({ id: 'annual', amount_cents: 6999, trial_days: 3 }),
    ]);
    expect(plans.packs[0]).toEqual({
      id: 'pack_350',
      desires: 350,
      amount_cents: 199,
      old_amount_cents: 499,
      discount_percent: 60,
      is_offer: true,
    });
    expect(plans.packs.map((p: { desires: number }) => p.desires)).toEqual([350, 1000, 3000]);
  });

  describe('daily claim', () => {
    it('grants 100 once, then refuses within 24 h with next_at', async () => {
      const { user, auth } = await createUser(app, db);
      const first = await app.inject({ method: 'POST', url: '/api/profile/claim_desires', headers: auth });
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body.claimed).toBe(true);
      expect(body.num_tokens).toBe(100);
      const nextAt = new Date(body.next_at).getTime();
      expect(Math.abs(nextAt - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);

      const second = await app.inject({ method: 'POST', url: '/api/profile/claim_desires', headers: auth });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ claimed: false, next_at: body.next_at, num_tokens: 100 });
      expect(await balanceOf(db, user.id)).toBe(100);
      expect((await profileOf(user.id)).next_claim_at).toBe(body.next_at);
    });

    it('allows the next claim after 24 h', async () => {
      const { user } = await createUser(app, db);
      const t0 = new Date('2026-01-01T10:00:00Z');
      expect((await app.billing.claimDailyDesires(user.id, t0)).claimed).toBe(true);
      expect((await app.billing.claimDailyDesires(user.id, new Date('2026-01-02T09:59:59Z'))).claimed).toBe(false);
      const again = await app.billing.claimDailyDesires(user.id, new Date('2026-01-02T10:00:00Z'));
      expect(again).toMatchObject({ claimed: true, num_tokens: 200, next_at: '2026-01-03T10:00:00.000Z' });
    });

    it('20 concurrent claims grant exactly once', async () => {
      const { user, auth } = await createUser(app, db);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          app.inject({ method: 'POST', url: '/api/profile/claim_desires', headers: auth }),
        ),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      expect(results.filter((r) => r.json().claimed)).toHaveLength(1);
      expect(await balanceOf(db, user.id)).toBe(100);
    });

    it('needs a signed-in user', async () => {
      expect((await app.inject({ method: 'POST', url: '/api/profile/claim_desires' })).statusCode).toBe(401);
    });
  });

  describe('ledger', () => {
    it('50 concurrent debits of 3 against a balance of 10 let exactly 3 through; the balance ends at 1', async () => {
      const { user } = await createUser(app, db);
      await grantDesires(db, user.id, 10);
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => debitDesires(db, user.id, 3)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(47);
      for (const r of refused) expect(r.reason).toMatchObject({ code: 'insufficient_desires', statusCode: 402 });
      expect(await balanceOf(db, user.id)).toBe(1);
    });

    it('the database refuses a negative balance even outside the ledger', async () => {
      const { user } = await createUser(app, db);
      await expect(db.execute(sql`update users set num_tokens = -1 where id = ${user.id}`)).rejects.toThrow();
    });

    it('an idempotency key moves a balance only once', async () => {
      const { user } = await createUser(app, db);
      await grantDesires(db, user.id, 10);
      const a = await debitDesires(db, user.id, 3, { idempotencyKey: 'unblur:msg-1' });
      const b = await debitDesires(db, user.id, 3, { idempotencyKey: 'unblur:msg-1' });
      expect(a).toEqual({ applied: true, balance: 7 });
      expect(b).toEqual({ applied: false, balance: 7 });
    });
  });

  describe('sandbox checkout and webhooks', () => {
    it('buying the 350 pack: checkout page, Approve, signed webhook, credited once', async () => {
      const { user, auth } = await createUser(app, db);
      const { url, id } = await checkout(auth, 'pack_350');
      expect(url.origin).toBe('http://localhost:3000');
      expect(url.pathname).toBe(`/checkout/sandbox/${id}`);

      const page = await app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${id}`, headers: auth });
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual({
        id,
        plan: 'pack_350',
        amount_cents: 199,
        currency: 'usd',
        status: 'pending',
        trial_days: 0,
        first_charge_at: null,
      });

      const approve = await decide(auth, id, 'approve');
      expect(approve.statusCode, approve.body).toBe(200);
      expect(approve.json()).toEqual({ status: 'paid', refunded: false });
      expect(await balanceOf(db, user.id)).toBe(350);

      // Approving again (a double click, a back button) credits nothing more.
      const again = await decide(auth, id, 'approve');
      expect(again.json()).toEqual({ status: 'paid', refunded: false });
      expect(await balanceOf(db, user.id)).toBe(350);
      const [payment] = rowsOf<{ status: string; amount_cents: number; currency: string }>(
        await db.execute(sql`select status, amount_cents, currency from payments where id = ${id}`),
      );
      expect(payment).toEqual({ status: 'paid', amount_cents: 199, currency: 'usd' });
    });

    it('Decline credits nothing', async () => {
      const { user, auth } = await createUser(app, db);
      const { id } = await checkout(auth, 'pack_1000', 'create_crypto_payment');
      const res = await decide(auth, id, 'decline');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'failed', refunded: false });
      expect((await decide(auth, id, 'approve')).json()).toEqual({ status: 'failed', refunded: false });
      expect(await balanceOf(db, user.id)).toBe(0);
    });

    it('the same webhook delivered 20 times concurrently credits once', async () => {
      const { user, auth } = await createUser(app, db);
      const { id } = await checkout(auth, 'pack_1000');
      const body = JSON.stringify({ id: 'evt_same', type: 'payment.succeeded', data: { payment_id: id } });
      const signature = signSandboxPayload(SANDBOX_SECRET, body);
      const results = await Promise.all(Array.from({ length: 20 }, () => sandboxWebhook(body, signature)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      expect(results.filter((r) => !r.json().duplicate)).toHaveLength(1);
      expect(await balanceOf(db, user.id)).toBe(1000);
    });

    it('different events for the same payment still credit once', async () => {
      const { user, auth } = await createUser(app, db);
      const { id } = await checkout(auth, 'pack_3000');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          sandboxWebhook(JSON.stringify({ id: `evt_${i}`, type: 'payment.succeeded', data: { payment_id: id } })),
        ),
      );
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      expect(await balanceOf(db, user.id)).toBe(3000);
    });

    it('a forged, stale or missing signature is a 400 and credits nothing', async () => {
      const { user, auth } = await createUser(app, db);
      const { id } = await checkout(auth, 'pack_350');
      const body = JSON.stringify({ id: 'evt_forged', type: 'payment.succeeded', data: { payment_id: id } });
      const forged = await sandboxWebhook(body, signSandboxPayload('not-the-secret-at-all-000000', body));
      expect(forged.statusCode).toBe(400);
      expect(forged.json().code).toBe('invalid_signature');
      const stale = await sandboxWebhook(body, signSandboxPayload(SANDBOX_SECRET, body, Date.now() - 3600_000));
      expect(stale.statusCode).toBe(400);
      const tampered = await sandboxWebhook(
        body.replace('evt_forged', 'evt_other'),
        signSandboxPayload(SANDBOX_SECRET, body),
      );
      expect(tampered.statusCode).toBe(400);
      const missing = await app.inject({
        method: 'POST',
        url: '/api/payments/webhook/sandbox',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(missing.statusCode).toBe(400);
      expect(await balanceOf(db, user.id)).toBe(0);
      // The event id was not used up by the forgeries: the genuine delivery still works.
      expect((await sandboxWebhook(body)).statusCode).toBe(200);
      expect(await balanceOf(db, user.id)).toBe(350);
    });

    it('an unconfigured provider answers 404', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/payments/webhook/stripe',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('premium', () => {
    it('subscribing monthly: trial, has_subscription, 100 desires at activation, cancel keeps premium', async () => {
      const { user, auth } = await createUser(app, db);
      expect((await profileOf(user.id)).has_subscription).toBe(false);
      const { id } = await checkout(auth, 'monthly');
      expect((await decide(auth, id, 'approve')).json()).toEqual({ status: 'paid', refunded: false });
      const profile = await profileOf(user.id);
      expect(profile.has_subscription).toBe(true);
      // In the trial: no activation grant yet (it comes with the first paid period), but the
      // trial's one daily grant (issue 26).
      expect(profile.num_tokens).toBe(100);
      expect(profile.subscription).toMatchObject({ plan: 'monthly', status: 'trialing' });
      const trialEnds = new Date(profile.subscription!.trial_ends_at!).getTime();
      expect(Math.abs(trialEnds - Date.now() - 3 * 24 * 3600_000)).toBeLessThan(60_000);

      // Subscribing again while premium renews is refused.
      const twice = await app.inject({
        method: 'POST',
        url: '/api/subscription/create_stripe',
        headers: auth,
        payload: { plan: 'annual' },
      });
      expect(twice.statusCode).toBe(409);

      const cancel = await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe/', headers: auth });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().status).toBe('cancelled');
      const after = await profileOf(user.id);
      expect(after.has_subscription).toBe(true);
      expect(after.subscription).toMatchObject({ status: 'cancelled', renews_at: null });
    });

    it('grants 100 desires once on each login day, idempotently', async () => {
      const { user, auth } = await createUser(app, db);
      // A paid period from the start (crypto, no trial): the activation's 100 today. (A trial's
      // daily grant is capped: billing-trial.test.ts.)
      const { id } = await checkout(auth, 'annual', 'create_crypto_payment');
      await sandboxWebhook(JSON.stringify({ id: `evt_${id}`, type: 'payment.succeeded', data: { payment_id: id } }));
      expect(await balanceOf(db, user.id)).toBe(100);
      const tomorrow = new Date(Date.now() + 24 * 3600_000);
      const grants = await Promise.all(
        Array.from({ length: 5 }, () => app.billing.grantDailyPremiumDesires(user.id, tomorrow)),
      );
      expect(grants.filter((g) => g.granted)).toHaveLength(1);
      expect(await balanceOf(db, user.id)).toBe(200);
      const dayAfter = new Date(Date.now() + 2 * 24 * 3600_000);
      expect((await app.billing.getBillingProfile(user.id, dayAfter)).num_tokens).toBe(300);
      expect((await app.billing.getBillingProfile(user.id, dayAfter)).num_tokens).toBe(300);
    });

    it('a non-premium user gets no daily premium desires', async () => {
      const { user } = await createUser(app, db);
      expect(await app.billing.grantDailyPremiumDesires(user.id, new Date())).toEqual({ granted: false, balance: 0 });
    });

    it('out-of-order subscription events end in the right state', async () => {
      const { user } = await createUser(app, db);
      const base = {
        type: 'subscription.updated' as const,
        userId: user.id,
        plan: 'monthly' as const,
        providerSubscriptionId: 'sub_ooo',
        trialEndsAt: null,
        cancelAtPeriodEnd: false,
        paymentId: null,
      };
      const t = (s: number) => new Date(Date.now() + s * 1000);
      const periodEnd = new Date(Date.now() + 30 * 24 * 3600_000);
      // Deleted (newest) arrives first, then the older "active" and "trialing" states.
      await app.billing.handlePaymentEvent('stripe', {
        ...base,
        id: 'evt_3',
        occurredAt: t(-10),
        status: 'cancelled',
        ended: true,
        paid: false,
        currentPeriodEnd: t(-10),
      });
      await app.billing.handlePaymentEvent('stripe', {
        ...base,
        id: 'evt_2',
        occurredAt: t(-20),
        status: 'active',
        ended: false,
        paid: true,
        currentPeriodEnd: periodEnd,
      });
      await app.billing.handlePaymentEvent('stripe', {
        ...base,
        id: 'evt_1',
        occurredAt: t(-30),
        status: 'trialing',
        ended: false,
        paid: false,
        currentPeriodEnd: periodEnd,
      });
      const profile = await profileOf(user.id);
      expect(profile.has_subscription).toBe(false);
      expect(profile.num_tokens).toBe(0);
      const [row] = rowsOf<{ status: string }>(
        await db.execute(sql`select status from subscriptions where provider_subscription_id = 'sub_ooo'`),
      );
      expect(row?.status).toBe('cancelled');
    });
  });

  it('getBillingProfile fits the Profile contract', async () => {
    const { user } = await createUser(app, db);
    const profile = await profileOf(user.id);
    expect(profile).toMatchObject({ num_tokens: 0, has_subscription: false, subscription: null, next_claim_at: null });
  });
});
