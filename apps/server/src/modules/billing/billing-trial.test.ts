import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { expectLedgerMatchesBalances } from '../../../test/billing-helpers.js';

const DAY = 24 * 3600_000;

/** Issue 26: one free trial per person, the activation grant with the first paid period (sandbox). */
describe('free trial (sandbox)', async () => {
  const { app, database } = await createTestApp({ env: { SANDBOX_WEBHOOK_SECRET: 'sandbox-secret-trial-0123456789' } });
  const db = database.db;
  afterEach(async () => {
    await expectLedgerMatchesBalances(db);
  });

  const buy = async (auth: Record<string, string>, plan: string, path = 'create_stripe') => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/subscription/${path}`,
      headers: auth,
      payload: { plan },
    });
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json().url as string).pathname.split('/').pop()!;
  };
  const page = async (auth: Record<string, string>, id: string) =>
    (await app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${id}`, headers: auth })).json();
  const approve = (auth: Record<string, string>, id: string) =>
    app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve`, headers: auth });
  const plans = async (auth?: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/api/billing/plans', headers: auth ?? {} })).json();
  const paymentsOf = async (userId: string) =>
    rowsOf<{ amount_cents: number; trial_days: number; status: string }>(
      await db.execute(
        sql`select amount_cents, trial_days, status from payments where user_id = ${userId} order by created_at`,
      ),
    );
  const ledgerOf = async (userId: string) =>
    rowsOf<{ reason: string; amount: number }>(
      await db.execute(sql`select reason, amount from ledger_entries where user_id = ${userId} order by id`),
    );

  it('subscribe, cancel, let the trial end, subscribe again: no second trial, and the checkout says so first', async () => {
    const { user, auth } = await createUser(app, db);
    expect((await plans()).trial_available).toBe(true);
    expect((await plans(auth)).trial_available).toBe(true);

    const first = await buy(auth, 'monthly');
    expect(await page(auth, first)).toMatchObject({ trial_days: 3, amount_cents: 1299 });
    expect((await approve(auth, first)).statusCode).toBe(200);
    // A $0 trial: recorded as what it charged, nothing.
    expect(await paymentsOf(user.id)).toEqual([{ amount_cents: 0, trial_days: 3, status: 'paid' }]);
    const now = Date.now();
    // The trial's daily grant, capped at once for the whole trial; no activation grant yet.
    expect((await app.billing.getBillingProfile(user.id, new Date(now))).num_tokens).toBe(100);
    expect((await app.billing.getBillingProfile(user.id, new Date(now + DAY))).num_tokens).toBe(100);
    expect((await app.billing.getBillingProfile(user.id, new Date(now + 2 * DAY))).num_tokens).toBe(100);
    expect(
      (await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe', headers: auth })).statusCode,
    ).toBe(200);
    // The trial ended (cancelled in it): no premium, no paid period, no activation grant.
    const later = new Date(now + 4 * DAY);
    const ended = await app.billing.getBillingProfile(user.id, later);
    expect(ended).toMatchObject({ has_subscription: false, num_tokens: 100 });

    // Again: the plans say there is no trial for this account, the sandbox page asks the full
    // price now, and the subscription starts paid.
    expect((await plans(auth)).trial_available).toBe(false);
    expect((await plans()).trial_available).toBe(true);
    await db.execute(
      sql`update subscriptions set current_period_end = now() - interval '1 minute' where user_id = ${user.id}`,
    );
    const second = await buy(auth, 'monthly');
    expect(await page(auth, second)).toMatchObject({ trial_days: 0, amount_cents: 1299, first_charge_at: null });
    await approve(auth, second);
    const profile = await app.billing.getBillingProfile(user.id);
    expect(profile.subscription).toMatchObject({ status: 'active', trial_ends_at: null });
    expect((await paymentsOf(user.id))[1]).toEqual({ amount_cents: 1299, trial_days: 0, status: 'paid' });
    // Its first paid period brings the activation grant: the one of this account.
    expect(profile.num_tokens).toBe(200);

    // A third time (the paid one cancelled and over): still no trial, and no second activation.
    await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe', headers: auth });
    await db.execute(
      sql`update subscriptions set current_period_end = now() - interval '1 minute' where user_id = ${user.id}`,
    );
    const third = await buy(auth, 'annual');
    expect(await page(auth, third)).toMatchObject({ trial_days: 0 });
    await approve(auth, third);
    expect((await app.billing.getBillingProfile(user.id)).subscription).toMatchObject({ status: 'active' });
    expect((await ledgerOf(user.id)).filter((e) => e.reason === 'premium_activation')).toHaveLength(1);
  });

  it('a trial that runs out without a cancel: the first period is charged, then the activation grant', async () => {
    const { user, auth } = await createUser(app, db);
    await approve(auth, await buy(auth, 'annual'));
    const now = Date.now();
    expect((await app.billing.getBillingProfile(user.id, new Date(now))).num_tokens).toBe(100);
    const after = await app.billing.getBillingProfile(user.id, new Date(now + 3 * DAY + 60_000));
    expect(after.subscription).toMatchObject({ status: 'active', trial_ends_at: null });
    // The trial's one daily grant, the activation, and that (simulated) day's daily grant: the
    // ledger's timestamps are the real clock's, so "the day of activation counts as granted"
    // does not see the simulated day.
    expect(after.num_tokens).toBe(300);
    await app.billing.getBillingProfile(user.id, new Date(now + 3 * DAY + 120_000));
    expect(await paymentsOf(user.id)).toEqual([
      { amount_cents: 0, trial_days: 3, status: 'paid' },
      { amount_cents: 6999, trial_days: 0, status: 'paid' },
    ]);
    expect((await ledgerOf(user.id)).map((e) => e.reason)).toEqual([
      'premium_daily',
      'premium_activation',
      'premium_daily',
    ]);
  });

  it('crypto promises no trial: the sandbox crypto checkout is a paid period at once', async () => {
    const { user, auth } = await createUser(app, db);
    const id = await buy(auth, 'monthly', 'create_crypto_payment');
    expect(await page(auth, id)).toMatchObject({ trial_days: 0, first_charge_at: null, amount_cents: 1299 });
    await approve(auth, id);
    const profile = await app.billing.getBillingProfile(user.id);
    expect(profile.subscription).toMatchObject({ status: 'active', trial_ends_at: null, renews_at: null });
    expect(profile.num_tokens).toBe(100);
    expect(await paymentsOf(user.id)).toEqual([{ amount_cents: 1299, trial_days: 0, status: 'paid' }]);
    // Crypto used no trial, but the account has subscribed: a later card subscription pays at once.
    expect((await plans(auth)).trial_available).toBe(false);
    // A prepaid period never renews: Settings offers no "Resume", and resuming is refused.
    const sub = await app.inject({ method: 'GET', url: '/api/subscription', headers: auth });
    expect(sub.json()).toMatchObject({ renews_at: null, can_resume: false });
    const resume = await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth });
    expect(resume.statusCode).toBe(409);
    expect(resume.json().code).toBe('cannot_resume');
  });

  it('the checkout return asks whether the payment is already credited (payer only)', async () => {
    const { auth } = await createUser(app, db);
    const other = await createUser(app, db);
    const id = await buy(auth, 'pack_350');
    const status = () => app.inject({ method: 'GET', url: `/api/billing/payments/${id}`, headers: auth });
    expect((await status()).json()).toMatchObject({ status: 'pending', credited: false });
    await approve(auth, id);
    expect((await status()).json()).toEqual({ id, plan: 'pack_350', status: 'paid', credited: true, refunded: false });
    const foreign = await app.inject({ method: 'GET', url: `/api/billing/payments/${id}`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
  });
});
