import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { sendJson, startFakeHttp } from '../../../test/fake-http.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { balanceOf, expectLedgerMatchesBalances } from '../../../test/billing-helpers.js';
import { signNowPaymentsBody } from '../../providers/payments/nowpayments.js';

const WEBHOOK_SECRET = 'whsec_test_secret_0123456789';
const IPN_SECRET = 'ipn-secret-0123456789';

interface Recorded {
  method: string;
  path: string;
  auth: string | undefined;
  form: URLSearchParams;
  json: unknown;
}

/** A fake Stripe (and NOWPayments) HTTP API: answers what the official SDK expects. */
async function startFakeProviders() {
  const requests: Recorded[] = [];
  let sessions = 0;
  const fake = await startFakeHttp((req, res) => {
    const path = req.url.split('?')[0]!;
    const isJson = String(req.headers['content-type']).includes('json');
    requests.push({
      method: req.method,
      path,
      auth: req.headers.authorization ?? (req.headers['x-api-key'] as string | undefined),
      form: new URLSearchParams(isJson ? '' : req.body),
      json: isJson && req.body ? JSON.parse(req.body) : null,
    });
    const send = (status: number, body: unknown) => sendJson(res, body, status, { 'request-id': 'req_fake' });
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      sessions += 1;
      const id = `cs_test_${sessions}`;
      return send(200, { id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}` });
    }
    const method = /^\/v1\/payment_methods\/(pm_\w+)$/.exec(path);
    // A payment method pm_<card>: its card's fingerprint is fp_<card>.
    if (req.method === 'GET' && method) {
      const card = method[1]!.slice(3);
      return send(200, { id: method[1], object: 'payment_method', type: 'card', card: { fingerprint: `fp_${card}` } });
    }
    const sub = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    // A subscription id starting with sub_fail: Stripe answers 500 (an API failure).
    if (sub && sub[1]!.startsWith('sub_fail')) {
      return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    }
    if (req.method === 'POST' && sub) {
      return send(200, { id: sub[1], object: 'subscription', cancel_at_period_end: true, status: 'trialing' });
    }
    if (req.method === 'DELETE' && sub) {
      return send(200, { id: sub[1], object: 'subscription', cancel_at_period_end: false, status: 'canceled' });
    }
    // Invoice payments: the invoice in_<x> was paid by the payment intent pi_<x> (and back).
    if (req.method === 'GET' && path === '/v1/invoice_payments') {
      const query = new URLSearchParams(req.url.split('?')[1] ?? '');
      const invoice = query.get('invoice') ?? query.get('payment[payment_intent]')?.replace(/^pi_/, 'in_');
      const data = invoice?.startsWith('in_')
        ? [
            {
              id: `inpay_${invoice}`,
              object: 'invoice_payment',
              invoice,
              status: 'paid',
              payment: { type: 'payment_intent', payment_intent: invoice.replace(/^in_/, 'pi_') },
            },
          ]
        : [];
      return send(200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
    }
    if (req.method === 'POST' && path === '/v1/invoice') {
      return send(200, { id: 4242, invoice_url: 'https://nowpayments.test/payment/?iid=4242' });
    }
    send(404, { error: { type: 'invalid_request_error', message: `no route ${path}` } });
  });
  return { requests, port: fake.port, close: fake.close };
}

describe('Stripe and NOWPayments providers', async () => {
  const fake = await startFakeProviders();
  afterAll(() => fake.close());
  const { app, database } = await createTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(fake.port),
      STRIPE_API_PROTOCOL: 'http',
      NOWPAYMENTS_API_KEY: 'np-key',
      NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
      NOWPAYMENTS_API_URL: `http://127.0.0.1:${fake.port}/v1`,
    },
  });
  const db = database.db;
  const stripe = new Stripe('sk_test_fake');
  afterEach(async () => {
    await expectLedgerMatchesBalances(db);
  });

  const stripeWebhook = (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
    return app.inject({
      method: 'POST',
      url: '/api/payments/webhook/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  };
  const event = (id: string, type: string, object: object, created = Math.floor(Date.now() / 1000)) => ({
    id,
    object: 'event',
    type,
    created,
    api_version: '2025-01-01',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  const paymentIdOf = async (userId: string) =>
    rowsOf<{ id: string }>(
      await db.execute(sql`select id from payments where user_id = ${userId} order by created_at desc limit 1`),
    )[0]!.id;

  it('create_stripe makes a subscription Checkout session with the 3-day trial through the SDK', async () => {
    const { user, auth } = await createUser(app, db);
    const res = await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe/',
      headers: auth,
      payload: { plan: 'monthly' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    const call = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(call.auth).toBe('Bearer sk_test_fake');
    expect(call.form.get('mode')).toBe('subscription');
    expect(call.form.get('subscription_data[trial_period_days]')).toBe('3');
    expect(call.form.get('subscription_data[metadata][user_id]')).toBe(user.id);
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe('1299');
    expect(call.form.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    const paymentId = await paymentIdOf(user.id);
    // The return names the payment, so the web can ask whether it is already credited.
    expect(call.form.get('success_url')).toBe(
      `http://localhost:3000/?purchase=success&plan=monthly&payment=${paymentId}`,
    );
    expect(call.form.get('cancel_url')).toBe(
      `http://localhost:3000/?purchase=failed&plan=monthly&payment=${paymentId}`,
    );
    expect(call.form.get('client_reference_id')).toBe(paymentId);
  });

  it('a paid pack session credits once, even when the event arrives 20 times concurrently', async () => {
    const { user, auth } = await createUser(app, db);
    await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe',
      headers: auth,
      payload: { plan: 'pack_350' },
    });
    const call = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(call.form.get('mode')).toBe('payment');
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe('199');
    const paymentId = await paymentIdOf(user.id);
    const completed = event('evt_pack_1', 'checkout.session.completed', {
      id: 'cs_test_pack',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      client_reference_id: paymentId,
      metadata: { payment_id: paymentId },
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => stripeWebhook(completed)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await balanceOf(db, user.id)).toBe(350);
  });

  it('an unpaid session credits nothing; a forged signature is a 400 and credits nothing', async () => {
    const { user, auth } = await createUser(app, db);
    await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe',
      headers: auth,
      payload: { plan: 'pack_1000' },
    });
    const paymentId = await paymentIdOf(user.id);
    const session = {
      id: 'cs_x',
      object: 'checkout.session',
      mode: 'payment',
      client_reference_id: paymentId,
      metadata: {},
    };
    expect(
      (await stripeWebhook(event('evt_unpaid', 'checkout.session.completed', { ...session, payment_status: 'unpaid' })))
        .statusCode,
    ).toBe(200);
    expect(await balanceOf(db, user.id)).toBe(0);
    const forged = await stripeWebhook(
      event('evt_forged', 'checkout.session.completed', { ...session, payment_status: 'paid' }),
      'whsec_wrong',
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_signature');
    const unsigned = await app.inject({
      method: 'POST',
      url: '/api/payments/webhook/stripe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(
        event('evt_unsigned', 'checkout.session.completed', { ...session, payment_status: 'paid' }),
      ),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await balanceOf(db, user.id)).toBe(0);
  });

  it('out-of-order and repeated subscription events end in the right state', async () => {
    const { user, auth } = await createUser(app, db);
    const now = Math.floor(Date.now() / 1000);
    const trialEnd = now + 3 * 86400;
    const sub = (status: string, extra: object = {}) => ({
      id: 'sub_test_1',
      object: 'subscription',
      status,
      cancel_at_period_end: false,
      trial_end: trialEnd,
      ended_at: null,
      canceled_at: null,
      metadata: { user_id: user.id, plan: 'monthly' },
      items: { object: 'list', data: [{ id: 'si_1', current_period_end: trialEnd }] },
      ...extra,
    });
    const created = event('evt_s1', 'customer.subscription.created', sub('trialing'), now - 30);
    const activated = event(
      'evt_s2',
      'customer.subscription.updated',
      sub('active', { items: { object: 'list', data: [{ id: 'si_1', current_period_end: now + 33 * 86400 }] } }),
      now - 20,
    );
    const cancelling = event(
      'evt_s3',
      'customer.subscription.updated',
      sub('active', {
        cancel_at_period_end: true,
        items: { object: 'list', data: [{ id: 'si_1', current_period_end: now + 33 * 86400 }] },
      }),
      now - 10,
    );
    // Newest first, then the older ones, then all of them again.
    for (const e of [cancelling, activated, created, created, cancelling, activated]) {
      expect((await stripeWebhook(e)).statusCode).toBe(200);
    }
    let profile = await app.billing.getBillingProfile(user.id);
    expect(profile.has_subscription).toBe(true);
    expect(profile.subscription).toMatchObject({ plan: 'monthly', status: 'cancelled', renews_at: null });
    expect(profile.num_tokens).toBe(100); // one activation grant, whatever the order
    const reasons = rowsOf<{ reason: string }>(
      await db.execute(sql`select reason from ledger_entries where user_id = ${user.id}`),
    ).map((r) => r.reason);
    expect(reasons).toEqual(['premium_activation']);

    // cancel_stripe asks Stripe to stop renewing, through the SDK.
    const cancel = await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe', headers: auth });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().status).toBe('cancelled');

    const deleted = event('evt_s4', 'customer.subscription.deleted', sub('canceled', { ended_at: now - 5 }), now - 5);
    const lateUpdate = event('evt_s2b', 'customer.subscription.updated', sub('active'), now - 15);
    expect((await stripeWebhook(deleted)).statusCode).toBe(200);
    expect((await stripeWebhook(lateUpdate)).statusCode).toBe(200);
    profile = await app.billing.getBillingProfile(user.id);
    expect(profile.has_subscription).toBe(false);
    expect(profile.subscription).toBeNull();
  });

  it('cancel_stripe calls the Stripe API and keeps premium to the period end', async () => {
    const { user, auth } = await createUser(app, db);
    const now = Math.floor(Date.now() / 1000);
    await stripeWebhook(
      event('evt_c1', 'customer.subscription.created', {
        id: 'sub_cancel_me',
        object: 'subscription',
        status: 'trialing',
        cancel_at_period_end: false,
        trial_end: now + 3 * 86400,
        metadata: { user_id: user.id, plan: 'annual' },
        items: { object: 'list', data: [{ id: 'si_2', current_period_end: now + 3 * 86400 }] },
      }),
    );
    const res = await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe/', headers: auth });
    expect(res.json()).toMatchObject({ status: 'cancelled' });
    const call = fake.requests.findLast((r) => r.path === '/v1/subscriptions/sub_cancel_me')!;
    expect(call.form.get('cancel_at_period_end')).toBe('true');
    const profile = await app.billing.getBillingProfile(user.id);
    expect(profile.has_subscription).toBe(true);
    expect(profile.subscription?.status).toBe('cancelled');

    // Resume before the end: Stripe is told to renew again, the subscription renews.
    const resumed = await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ status: 'trialing', ends_at: null, provider: 'stripe', can_resume: false });
    const resumeCall = fake.requests.findLast((r) => r.path === '/v1/subscriptions/sub_cancel_me')!;
    expect(resumeCall.form.get('cancel_at_period_end')).toBe('false');
  });

  it('a second Stripe subscription of one account is refused, stopped at Stripe and its payment flagged', async () => {
    const { user, auth } = await createUser(app, db);
    const now = Math.floor(Date.now() / 1000);
    const subscription = (id: string, paymentId: string) => ({
      id,
      object: 'subscription',
      status: 'trialing',
      cancel_at_period_end: false,
      trial_end: now + 3 * 86400,
      metadata: { user_id: user.id, plan: 'monthly', payment_id: paymentId },
      items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: now + 3 * 86400 }] },
    });
    // Two checkouts opened before either completed (two tabs).
    const open = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/subscription/create_stripe',
        headers: auth,
        payload: { plan: 'monthly' },
      });
      expect(res.statusCode).toBe(200);
      return fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.form.get('client_reference_id')!;
    };
    const first = await open();
    const second = await open();
    const results = await Promise.all([
      stripeWebhook(event('evt_dup_1', 'customer.subscription.created', subscription('sub_dup_1', first))),
      stripeWebhook(event('evt_dup_2', 'customer.subscription.created', subscription('sub_dup_2', second))),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const subs = rowsOf<{ provider_subscription_id: string }>(
      await db.execute(sql`select provider_subscription_id from subscriptions where user_id = ${user.id}`),
    );
    expect(subs).toHaveLength(1);
    // Both in their trial: no activation grant yet (it comes with the first paid period).
    expect(await balanceOf(db, user.id)).toBe(0);
    const kept = subs[0]!.provider_subscription_id;
    const refused = kept === 'sub_dup_1' ? 'sub_dup_2' : 'sub_dup_1';
    const flagged = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id from payments where refund_reason = 'duplicate_subscription' and user_id = ${user.id}`,
      ),
    );
    expect(flagged.map((r) => r.id)).toEqual([refused === 'sub_dup_1' ? first : second]);
    // Ended at once (DELETE), not merely set to end at the period's end.
    const stops = fake.requests.filter((r) => r.path === `/v1/subscriptions/${refused}`);
    expect(stops.map((r) => r.method)).toEqual(['DELETE']);
    const refusedPayment = refused === 'sub_dup_1' ? first : second;

    // Its checkout completes afterwards: the payment keeps the refused subscription's id.
    await stripeWebhook(
      event('evt_dup_paid', 'checkout.session.completed', {
        id: 'cs_dup_paid',
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'no_payment_required',
        client_reference_id: refusedPayment,
        metadata: { payment_id: refusedPayment },
      }),
    );
    const ref = rowsOf<{ provider_ref: string; refund_reason: string }>(
      await db.execute(sql`select provider_ref, refund_reason from payments where id = ${refusedPayment}`),
    );
    expect(ref).toEqual([{ provider_ref: refused, refund_reason: 'duplicate_subscription' }]);

    // The kept subscription ends; a later event of the refused one (say, un-cancelled in the
    // dashboard) is still ignored: no subscription, no grant, no second stop.
    const later = Math.floor(Date.now() / 1000) + 5;
    await stripeWebhook(
      event(
        'evt_dup_end',
        'customer.subscription.deleted',
        { ...subscription(kept, refused === 'sub_dup_1' ? second : first), status: 'canceled', ended_at: later - 10 },
        later - 1,
      ),
    );
    expect(await app.billing.getBillingProfile(user.id)).toMatchObject({ has_subscription: false });
    const revived = await stripeWebhook(
      event(
        'evt_dup_revived',
        'customer.subscription.updated',
        { ...subscription(refused, refusedPayment), status: 'active' },
        later,
      ),
    );
    expect(revived.statusCode).toBe(200);
    const after = rowsOf<{ provider_subscription_id: string }>(
      await db.execute(sql`select provider_subscription_id from subscriptions where user_id = ${user.id}`),
    );
    expect(after.map((r) => r.provider_subscription_id)).toEqual([kept]);
    expect(await balanceOf(db, user.id)).toBe(0);
    expect(fake.requests.filter((r) => r.path === `/v1/subscriptions/${refused}`)).toHaveLength(1);
  });

  it('created and updated of one Stripe subscription arriving at once make one subscription, nothing refused', async () => {
    const { user, auth } = await createUser(app, db);
    const res = await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe',
      headers: auth,
      payload: { plan: 'monthly' },
    });
    expect(res.statusCode).toBe(200);
    const paymentId = await paymentIdOf(user.id);
    const now = Math.floor(Date.now() / 1000);
    const object = {
      id: 'sub_race_1',
      object: 'subscription',
      status: 'trialing',
      cancel_at_period_end: false,
      trial_end: now + 3 * 86400,
      metadata: { user_id: user.id, plan: 'monthly', payment_id: paymentId },
      items: { object: 'list', data: [{ id: 'si_race', current_period_end: now + 3 * 86400 }] },
    };
    // Another transaction holds the account's row while both events arrive, so both are under
    // way at once when it lets go (on PostgreSQL; PGlite runs transactions one by one).
    let deliveries: Promise<Awaited<ReturnType<typeof stripeWebhook>>[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${user.id} for update`);
      deliveries = Promise.all([
        stripeWebhook(event('evt_race_created', 'customer.subscription.created', object, now)),
        stripeWebhook(event('evt_race_updated', 'customer.subscription.updated', object, now)),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const results = await deliveries!;
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const subs = rowsOf<{ provider_subscription_id: string }>(
      await db.execute(sql`select provider_subscription_id from subscriptions where user_id = ${user.id}`),
    );
    expect(subs.map((r) => r.provider_subscription_id)).toEqual(['sub_race_1']);
    const flagged = rowsOf<{ refund_reason: string | null }>(
      await db.execute(sql`select refund_reason from payments where id = ${paymentId}`),
    );
    expect(flagged).toEqual([{ refund_reason: null }]);
    expect(fake.requests.filter((r) => r.path === '/v1/subscriptions/sub_race_1')).toHaveLength(0);
    // In its trial: no activation grant yet (issue 26).
    expect(await balanceOf(db, user.id)).toBe(0);
  });

  it('cancel and resume answer 502 payment_error when the Stripe API fails', async () => {
    const { user, auth } = await createUser(app, db);
    const now = Math.floor(Date.now() / 1000);
    const object = (cancelAtPeriodEnd: boolean) => ({
      id: 'sub_fail_api',
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: cancelAtPeriodEnd,
      metadata: { user_id: user.id, plan: 'monthly' },
      items: { object: 'list', data: [{ id: 'si_fail', current_period_end: now + 30 * 86400 }] },
    });
    await stripeWebhook(event('evt_fail_1', 'customer.subscription.created', object(false), now - 10));
    const cancel = await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe', headers: auth });
    expect(cancel.statusCode, cancel.body).toBe(502);
    expect(cancel.json().code).toBe('payment_error');
    // Nothing changed here: it still renews.
    expect((await app.billing.getBillingProfile(user.id)).subscription).toMatchObject({ status: 'active' });

    await stripeWebhook(event('evt_fail_2', 'customer.subscription.updated', object(true), now - 5));
    const resume = await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth });
    expect(resume.statusCode, resume.body).toBe(502);
    expect(resume.json().code).toBe('payment_error');
    expect((await app.billing.getBillingProfile(user.id)).subscription).toMatchObject({ status: 'cancelled' });
  });

  describe('one free trial per person (issue 26)', () => {
    const now = () => Math.floor(Date.now() / 1000);
    let checkouts = 0;
    const subscribe = async (auth: Record<string, string>, plan = 'monthly') => {
      checkouts += 1;
      const res = await app.inject({
        method: 'POST',
        url: '/api/subscription/create_stripe',
        headers: auth,
        payload: { plan },
        // Its own address: the checkout's rate limit (10 a minute) counts the whole file's.
        remoteAddress: `10.26.0.${checkouts}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    };
    const subscription = (
      id: string,
      userId: string,
      paymentId: string,
      status: string,
      extra: Record<string, unknown> = {},
    ) => ({
      id,
      object: 'subscription',
      status,
      customer: `cus_${id}`,
      default_payment_method: 'pm_card1',
      cancel_at_period_end: false,
      trial_end: status === 'trialing' ? now() + 3 * 86400 : null,
      metadata: { user_id: userId, plan: 'monthly', payment_id: paymentId },
      items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: now() + 3 * 86400 }] },
      ...extra,
    });

    it('subscribe, cancel, the trial ends, subscribe again: no second trial, no second +100; the console counts money only', async () => {
      const { user, auth } = await createUser(app, db);
      const first = await subscribe(auth);
      expect(first.form.get('subscription_data[trial_period_days]')).toBe('3');
      const firstPayment = first.form.get('client_reference_id')!;
      // The trial's checkout completes with nothing charged.
      await stripeWebhook(
        event('evt_t1_session', 'checkout.session.completed', {
          id: 'cs_t1',
          object: 'checkout.session',
          mode: 'subscription',
          payment_status: 'no_payment_required',
          amount_total: 0,
          client_reference_id: firstPayment,
          metadata: { payment_id: firstPayment },
        }),
      );
      await stripeWebhook(
        event(
          'evt_t1_created',
          'customer.subscription.created',
          subscription('sub_t1', user.id, firstPayment, 'trialing'),
        ),
      );
      // The card's fingerprint was asked of Stripe (the webhook names only the payment method).
      expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/payment_methods/pm_card1')).toBe(true);
      expect(await balanceOf(db, user.id)).toBe(0); // no activation grant in the trial
      // Cancelled in the trial, then the trial ends (Stripe deletes it).
      await stripeWebhook(
        event(
          'evt_t1_deleted',
          'customer.subscription.deleted',
          subscription('sub_t1', user.id, firstPayment, 'canceled', { ended_at: now() }),
        ),
      );
      expect((await app.billing.getBillingProfile(user.id)).has_subscription).toBe(false);
      expect(await balanceOf(db, user.id)).toBe(0);

      // Again: the plans say no trial, and Stripe's checkout has none — paid from day one.
      const plans = await app.inject({ method: 'GET', url: '/api/billing/plans', headers: auth });
      expect(plans.json().trial_available).toBe(false);
      const second = await subscribe(auth);
      expect(second.form.get('subscription_data[trial_period_days]')).toBeNull();
      expect(second.form.get('subscription_data[metadata][user_id]')).toBe(user.id);
      const secondPayment = second.form.get('client_reference_id')!;
      await stripeWebhook(
        event('evt_t2_session', 'checkout.session.completed', {
          id: 'cs_t2',
          object: 'checkout.session',
          mode: 'subscription',
          payment_status: 'paid',
          amount_total: 1299,
          payment_intent: 'pi_t2',
          client_reference_id: secondPayment,
          metadata: { payment_id: secondPayment },
        }),
      );
      await stripeWebhook(
        event(
          'evt_t2_created',
          'customer.subscription.created',
          subscription('sub_t2', user.id, secondPayment, 'active', {
            items: { object: 'list', data: [{ id: 'si_t2', current_period_end: now() + 30 * 86400 }] },
          }),
        ),
      );
      // The first paid period brings the account's one activation grant.
      expect(await balanceOf(db, user.id)).toBe(100);
      // Its renewal is money received too; then it ends, and a third subscription gets no +100.
      await stripeWebhook(
        event('evt_t2_renewal', 'invoice.paid', {
          id: 'in_t2_2',
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          amount_paid: 1299,
          currency: 'usd',
          parent: {
            type: 'subscription_details',
            subscription_details: { metadata: { user_id: user.id, plan: 'monthly' } },
          },
        }),
      );
      await stripeWebhook(
        event(
          'evt_t2_deleted',
          'customer.subscription.deleted',
          subscription('sub_t2', user.id, secondPayment, 'canceled', { ended_at: now() }),
        ),
      );
      const third = await subscribe(auth);
      expect(third.form.get('subscription_data[trial_period_days]')).toBeNull();
      const thirdPayment = third.form.get('client_reference_id')!;
      await stripeWebhook(
        event(
          'evt_t3_created',
          'customer.subscription.created',
          subscription('sub_t3', user.id, thirdPayment, 'active', {
            items: { object: 'list', data: [{ id: 'si_t3', current_period_end: now() + 30 * 86400 }] },
          }),
        ),
      );
      expect((await app.billing.getBillingProfile(user.id)).has_subscription).toBe(true);
      expect(await balanceOf(db, user.id)).toBe(100);

      // A refund of the first paid period's charge subtracts.
      await stripeWebhook(
        event('evt_t2_refund', 'charge.refunded', {
          id: 'ch_t2',
          object: 'charge',
          payment_intent: 'pi_t2',
          amount: 1299,
          amount_refunded: 500,
          metadata: {},
        }),
      );
      const rows = rowsOf<{ amount_cents: number; refunded_cents: number; trial_days: number; status: string }>(
        await db.execute(
          sql`select amount_cents, refunded_cents, trial_days, status from payments
              where user_id = ${user.id} and status = 'paid' order by created_at`,
        ),
      );
      expect(rows).toEqual([
        { amount_cents: 0, refunded_cents: 0, trial_days: 3, status: 'paid' },
        { amount_cents: 1299, refunded_cents: 500, trial_days: 0, status: 'paid' },
        { amount_cents: 1299, refunded_cents: 0, trial_days: 0, status: 'paid' },
      ]);
    });

    it('a refund of a later charge subtracts: invoice.paid without its payments is recorded under the payment intent the refund names', async () => {
      const { user } = await createUser(app, db);
      // A renewal's invoice as Stripe sends it: `payments` is not in the event unless expanded.
      const renewal = (id: string, invoice: string) =>
        event(id, 'invoice.paid', {
          id: invoice,
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          amount_paid: 1299,
          currency: 'usd',
          parent: {
            type: 'subscription_details',
            subscription_details: { metadata: { user_id: user.id, plan: 'monthly' } },
          },
        });
      expect((await stripeWebhook(renewal('evt_later_paid', 'in_later1'))).statusCode).toBe(200);
      expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/invoice_payments')).toBe(true);
      const refund = (id: string, intent: string, refunded: number) =>
        event(id, 'charge.refunded', {
          id: `ch_${intent}`,
          object: 'charge',
          payment_intent: intent,
          amount: 1299,
          amount_refunded: refunded,
          metadata: {},
        });
      await stripeWebhook(refund('evt_later_refund', 'pi_later1', 1299));
      const rows = async () =>
        rowsOf<{ charge_ref: string; amount_cents: number; refunded_cents: number }>(
          await db.execute(
            sql`select charge_ref, amount_cents, refunded_cents from payments
                where user_id = ${user.id} and status = 'paid' order by created_at`,
          ),
        );
      expect(await rows()).toEqual([{ charge_ref: 'pi_later1', amount_cents: 1299, refunded_cents: 1299 }]);
      // A charge recorded under its invoice id (Stripe could not be asked then) still matches:
      // the refund's payment intent is looked up to its invoice.
      await db.execute(sql`update payments set charge_ref = 'in_later1' where user_id = ${user.id}`);
      await db.execute(sql`update payments set refunded_cents = 0 where user_id = ${user.id}`);
      await stripeWebhook(refund('evt_later_refund_2', 'pi_later1', 600));
      expect(await rows()).toEqual([{ charge_ref: 'in_later1', amount_cents: 1299, refunded_cents: 600 }]);
    });

    it('another account with the same card gets no second trial: Stripe ends it at once', async () => {
      const { user, auth } = await createUser(app, db);
      const first = await subscribe(auth);
      await stripeWebhook(
        event(
          'evt_fp_1',
          'customer.subscription.created',
          subscription('sub_fp_1', user.id, first.form.get('client_reference_id')!, 'trialing', {
            default_payment_method: 'pm_shared',
          }),
        ),
      );
      expect(fake.requests.filter((r) => r.path === '/v1/subscriptions/sub_fp_1')).toHaveLength(0);

      const other = await createUser(app, db);
      const second = await subscribe(other.auth);
      // A new account: the checkout offers the trial (the card is known only after it).
      expect(second.form.get('subscription_data[trial_period_days]')).toBe('3');
      const res = await stripeWebhook(
        event(
          'evt_fp_2',
          'customer.subscription.created',
          subscription('sub_fp_2', other.user.id, second.form.get('client_reference_id')!, 'trialing', {
            default_payment_method: 'pm_shared',
          }),
        ),
      );
      expect(res.statusCode).toBe(200);
      const ended = fake.requests.filter((r) => r.path === '/v1/subscriptions/sub_fp_2');
      expect(ended.map((r) => [r.method, r.form.get('trial_end')])).toEqual([['POST', 'now']]);
      expect(await balanceOf(db, other.user.id)).toBe(0);
      // Stripe then charges the first period: the activation grant comes with it.
      await stripeWebhook(
        event(
          'evt_fp_3',
          'customer.subscription.updated',
          subscription('sub_fp_2', other.user.id, second.form.get('client_reference_id')!, 'active', {
            default_payment_method: 'pm_shared',
            items: { object: 'list', data: [{ id: 'si_fp_2', current_period_end: now() + 30 * 86400 }] },
          }),
        ),
      );
      expect(await balanceOf(db, other.user.id)).toBe(100);
      expect(fake.requests.filter((r) => r.path === '/v1/subscriptions/sub_fp_2')).toHaveLength(1);
    });
  });

  describe('NOWPayments', () => {
    const ipn = (body: Record<string, unknown>, secret = IPN_SECRET) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/webhook/nowpayments',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': signNowPaymentsBody(secret, body) },
        // Key order differs from the signed (sorted) order on purpose.
        payload: JSON.stringify(body),
      });

    it('creates an invoice and credits only on a verified "finished" IPN', async () => {
      const { user, auth } = await createUser(app, db);
      const res = await app.inject({
        method: 'POST',
        url: '/api/subscription/create_crypto_payment/',
        headers: auth,
        payload: { plan: 'pack_3000' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().url).toBe('https://nowpayments.test/payment/?iid=4242');
      const call = fake.requests.findLast((r) => r.path === '/v1/invoice')!;
      expect(call.auth).toBe('np-key');
      const paymentId = await paymentIdOf(user.id);
      expect(call.json).toMatchObject({ price_amount: 24.99, price_currency: 'usd', order_id: paymentId });

      const base = {
        payment_id: 777,
        order_id: paymentId,
        price_amount: 24.99,
        price_currency: 'usd',
        pay_currency: 'btc',
      };
      expect((await ipn({ payment_status: 'waiting', ...base })).statusCode).toBe(200);
      expect((await ipn({ payment_status: 'confirming', ...base })).statusCode).toBe(200);
      expect(await balanceOf(db, user.id)).toBe(0);
      expect((await ipn({ payment_status: 'finished', ...base }, 'wrong-secret')).statusCode).toBe(400);
      expect(await balanceOf(db, user.id)).toBe(0);
      const finished = await Promise.all(Array.from({ length: 5 }, () => ipn({ payment_status: 'finished', ...base })));
      expect(finished.every((r) => r.statusCode === 200)).toBe(true);
      expect(await balanceOf(db, user.id)).toBe(3000);
    });

    it('a crypto subscription is one prepaid period with the activation grant', async () => {
      const { user, auth } = await createUser(app, db);
      await app.inject({
        method: 'POST',
        url: '/api/subscription/create_crypto_payment',
        headers: auth,
        payload: { plan: 'monthly' },
      });
      const paymentId = await paymentIdOf(user.id);
      await ipn({ payment_id: 778, payment_status: 'finished', order_id: paymentId });
      const profile = await app.billing.getBillingProfile(user.id);
      expect(profile.has_subscription).toBe(true);
      expect(profile.subscription).toMatchObject({
        plan: 'monthly',
        status: 'active',
        trial_ends_at: null,
        renews_at: null,
      });
      expect(profile.num_tokens).toBe(100);
      // A prepaid period: it ends, it cannot be resumed; cancelling changes nothing but the status.
      const current = await app.inject({ method: 'GET', url: '/api/subscription', headers: auth });
      expect(current.json()).toMatchObject({ provider: 'nowpayments', renews_at: null, can_resume: false });
      expect(current.json().ends_at).toBeTruthy();
      const resume = await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth });
      expect(resume.statusCode).toBe(409);
      expect(resume.json().code).toBe('cannot_resume');
    });
  });
});
