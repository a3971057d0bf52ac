// Issue 11 "Safe to sell": payments safe by default, subscriptions a subscriber controls,
// one subscription per account, the sandbox checkout only for its payer, safe return paths.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { buildApp } from '../../app.js';
import { createTestApp, createTestDatabase, testConfig } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { balanceOf, expectLedgerMatchesBalances } from '../../../test/billing-helpers.js';
import { createPaymentProviders, isLoopbackUrl } from '../../providers/payments/index.js';
import { signSandboxPayload } from '../../providers/payments/sandbox.js';
import { isSafeReturnPath } from '@reverie/shared';
import { checkoutReturnUrl } from './billing.service.js';

const SANDBOX_SECRET = 'sandbox-secret-for-tests-0123456789';
const PUBLIC = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://reverie.example',
  SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
};
const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: 'whsec_test_secret_0123456789' };

type Inject = Awaited<ReturnType<typeof createTestApp>>['app'];
const buy = (app: Inject, auth: Record<string, string>, plan: string, path = 'create_stripe', extra = {}) =>
  app.inject({ method: 'POST', url: `/api/subscription/${path}/`, headers: auth, payload: { plan, ...extra } });
const idOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe('which providers run (providers/payments/index.ts)', () => {
  it('loopback addresses are local; real addresses are not', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1', 'http://127.8.9.10:8080', 'http://[::1]:3000'])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      'https://reverie.example',
      'http://10.0.0.5',
      'http://localhost.example.com',
      'http://128.0.0.1',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });

  it('the matrix: local trial → sandbox; public address → off; Stripe → no crypto fallback', () => {
    const pick = (env: Record<string, string>) => {
      const p = createPaymentProviders(testConfig(env));
      return { card: p.card?.id ?? null, crypto: p.crypto?.id ?? null, warnings: p.warnings.length };
    };
    expect(pick({})).toEqual({ card: 'sandbox', crypto: 'sandbox', warnings: 0 });
    expect(pick({ NODE_ENV: 'production' })).toEqual({ card: 'sandbox', crypto: 'sandbox', warnings: 0 });
    expect(pick({ NODE_ENV: 'test' })).toEqual({ card: 'sandbox', crypto: 'sandbox', warnings: 0 });
    // Only the address makes a local trial: development (the server's default NODE_ENV) or
    // test on a public address do not turn the sandbox on by themselves.
    for (const NODE_ENV of ['development', 'test'])
      expect(pick({ NODE_ENV, PUBLIC_URL: 'https://reverie.example' }), NODE_ENV).toEqual({
        card: null,
        crypto: null,
        warnings: 1,
      });
    // Asked for on a public address, in any mode: the sandbox runs and the start warns.
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const p = createPaymentProviders(
        testConfig({ NODE_ENV, PUBLIC_URL: 'https://reverie.example', PAYMENT_PROVIDER: 'sandbox' }),
      );
      expect(p.card?.id, NODE_ENV).toBe('sandbox');
      expect(p.warnings, NODE_ENV).toEqual([expect.stringMatching(/sandbox on a public address \(reverie\.example\)/)]);
    }
    expect(pick(PUBLIC)).toEqual({ card: null, crypto: null, warnings: 1 });
    expect(pick({ ...PUBLIC, PAYMENT_PROVIDER: 'sandbox' })).toEqual({
      card: 'sandbox',
      crypto: 'sandbox',
      warnings: 1,
    });
    expect(pick({ ...PUBLIC, ...STRIPE })).toEqual({ card: 'stripe', crypto: null, warnings: 0 });
    expect(pick({ ...STRIPE })).toEqual({ card: 'stripe', crypto: null, warnings: 0 });
    expect(pick({ ...PUBLIC, NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 's' })).toEqual({
      card: null,
      crypto: 'nowpayments',
      warnings: 0,
    });
    expect(() => pick({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
  });
});

describe('a public site with no payment settings', async () => {
  const { app, database } = await createTestApp({ env: PUBLIC });
  afterEach(() => expectLedgerMatchesBalances(database.db));

  it('lists plans with buying off, and every checkout answers 503 payments_not_configured', async () => {
    const plans = await app.inject({ method: 'GET', url: '/api/billing/plans' });
    expect(plans.statusCode).toBe(200);
    expect(plans.json()).toMatchObject({ payments_enabled: false, card_enabled: false, crypto_enabled: false });
    expect(plans.json().packs).toHaveLength(3);
    const { user, auth } = await createUser(app, database.db);
    for (const path of ['create_stripe', 'create_crypto_payment']) {
      for (const plan of ['pack_350', 'monthly']) {
        const res = await buy(app, auth, plan, path);
        expect(res.statusCode, `${path} ${plan}`).toBe(503);
        expect(res.json()).toMatchObject({ code: 'payments_not_configured' });
      }
    }
    const es = await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe/',
      headers: { ...auth, 'accept-language': 'es' },
      payload: { plan: 'pack_350' },
    });
    const en = await buy(app, auth, 'pack_350');
    expect(en.json().detail).toBe('Payments are not set up on this site yet, so nothing can be bought right now.');
    expect(es.json().detail).not.toBe(en.json().detail);
    const [count] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from payments`));
    expect(count!.n).toBe(0);
    expect(await balanceOf(database.db, user.id)).toBe(0);
  });

  it('a forged sandbox webhook credits nothing: there is no sandbox here', async () => {
    const { user, auth } = await createUser(app, database.db);
    const [payment] = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`insert into payments (user_id, provider, plan, amount_cents, currency) values (${user.id}, 'sandbox', 'pack_3000', 2499, 'usd') returning id`,
      ),
    );
    const body = JSON.stringify({ id: 'evt_forged', type: 'payment.succeeded', data: { payment_id: payment!.id } });
    // Even signed with the very secret a sandbox would use.
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/webhook/sandbox',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxPayload(SANDBOX_SECRET, body) },
      payload: body,
    });
    expect(res.statusCode).toBe(404);
    const approve = await app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${payment!.id}/approve`,
      headers: auth,
    });
    expect(approve.statusCode).toBe(404);
    expect(await balanceOf(database.db, user.id)).toBe(0);
  });
});

describe('the sandbox on a public address only when named', async () => {
  const lines: string[] = [];
  const database = await createTestDatabase();
  const app = await buildApp({
    config: testConfig({ ...PUBLIC, PAYMENT_PROVIDER: 'sandbox' }),
    database,
    logger: {
      level: 'warn',
      stream: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    },
    webDistDir: null,
  });
  await app.ready();
  afterEach(() => expectLedgerMatchesBalances(database.db));

  it('warns at start', async () => {
    await app.close().catch(() => undefined);
    const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.level === 40);
    expect(warning?.msg).toMatch(/PAYMENT_PROVIDER=sandbox on a public address \(reverie\.example\)/);
  });
});

describe('the sandbox on a public address, buying', async () => {
  const { app, database } = await createTestApp({ env: { ...PUBLIC, PAYMENT_PROVIDER: 'sandbox' } });
  afterEach(() => expectLedgerMatchesBalances(database.db));

  it('checks out through the sandbox page of the site', async () => {
    const { user, auth } = await createUser(app, database.db);
    const res = await buy(app, auth, 'pack_350');
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(/^https:\/\/reverie\.example\/checkout\/sandbox\//);
    const id = idOf(res.json().url);
    const ok = await app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve`, headers: auth });
    expect(ok.json()).toEqual({ status: 'paid', refunded: false });
    expect(await balanceOf(database.db, user.id)).toBe(350);
  });
});

describe('production on a loopback address (a fresh npm start)', async () => {
  const { app, database } = await createTestApp({
    env: { NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3000', SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET },
  });
  afterEach(() => expectLedgerMatchesBalances(database.db));

  it('still buys through the sandbox', async () => {
    const plans = await app.inject({ method: 'GET', url: '/api/billing/plans' });
    expect(plans.json()).toMatchObject({ payments_enabled: true, card_enabled: true, crypto_enabled: true });
    const { user, auth } = await createUser(app, database.db);
    const res = await buy(app, auth, 'pack_1000', 'create_crypto_payment');
    expect(res.statusCode).toBe(200);
    const id = idOf(res.json().url);
    await app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve`, headers: auth });
    expect(await balanceOf(database.db, user.id)).toBe(1000);
  });
});

describe('Stripe without NOWPayments', async () => {
  const { app, database } = await createTestApp({ env: { ...PUBLIC, ...STRIPE } });

  it('crypto is off (503), never the sandbox', async () => {
    const plans = await app.inject({ method: 'GET', url: '/api/billing/plans' });
    expect(plans.json()).toMatchObject({ payments_enabled: true, card_enabled: true, crypto_enabled: false });
    const { auth } = await createUser(app, database.db);
    const res = await buy(app, auth, 'pack_350', 'create_crypto_payment');
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('payments_not_configured');
    const sandbox = await app.inject({ method: 'GET', url: '/api/payments/sandbox/checkout/x', headers: auth });
    expect(sandbox.statusCode).toBe(404);
  });
});

describe('local sandbox: the payer, subscriptions, return paths', async () => {
  const { app, database } = await createTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET } });
  const db = database.db;
  afterEach(() => expectLedgerMatchesBalances(db));
  const decide = (auth: Record<string, string>, id: string, verb = 'approve') =>
    app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/${verb}`, headers: auth });

  it('only the signed-in payer can see, approve or decline a sandbox checkout', async () => {
    const payer = await createUser(app, db);
    const other = await createUser(app, db);
    const id = idOf((await buy(app, payer.auth, 'pack_3000')).json().url);
    const peek = await app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${id}`, headers: other.auth });
    expect(peek.statusCode).toBe(404);
    expect((await decide(other.auth, id)).statusCode).toBe(404);
    expect((await decide(other.auth, id, 'decline')).statusCode).toBe(404);
    const guest = await app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve` });
    expect(guest.statusCode).toBe(401);
    const guestPage = await app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${id}` });
    expect(guestPage.statusCode).toBe(401);
    expect(await balanceOf(db, payer.user.id)).toBe(0);
    expect(await balanceOf(db, other.user.id)).toBe(0);
    const [row] = rowsOf<{ status: string }>(await db.execute(sql`select status from payments where id = ${id}`));
    expect(row!.status).toBe('pending');
    // Nonsense ids are a 404, never a 500.
    for (const bad of ['x', '00000000-0000-0000-0000-000000000000', "1' or '1'='1"]) {
      const res = await decide(payer.auth, encodeURIComponent(bad));
      expect(res.statusCode, bad).toBe(404);
    }
    expect((await decide(payer.auth, id)).json()).toEqual({ status: 'paid', refunded: false });
    expect(await balanceOf(db, payer.user.id)).toBe(3000);
  });

  it('a trial checkout says $0 today and when the first charge comes', async () => {
    const { auth } = await createUser(app, db);
    const id = idOf((await buy(app, auth, 'annual')).json().url);
    const page = await app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${id}`, headers: auth });
    expect(page.json()).toMatchObject({ plan: 'annual', amount_cents: 6999, trial_days: 3 });
    const first = new Date(page.json().first_charge_at).getTime();
    expect(Math.abs(first - Date.now() - 3 * 86400_000)).toBeLessThan(60_000);
  });

  it('GET /api/subscription, cancel → ends_at, resume; a second subscription is refused with 409', async () => {
    const { user, auth } = await createUser(app, db);
    const none = await app.inject({ method: 'GET', url: '/api/subscription', headers: auth });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect((await app.inject({ method: 'GET', url: '/api/subscription' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth })).json().code).toBe(
      'cannot_resume',
    );

    await decide(auth, idOf((await buy(app, auth, 'monthly')).json().url));
    const live = (await app.inject({ method: 'GET', url: '/api/subscription', headers: auth })).json();
    expect(live).toMatchObject({
      plan: 'monthly',
      status: 'trialing',
      ends_at: null,
      provider: 'sandbox',
      can_resume: false,
    });
    expect(live.renews_at).toBeTruthy();
    expect(live.trial_ends_at).toBeTruthy();

    const cancel = await app.inject({ method: 'POST', url: '/api/subscription/cancel_stripe/', headers: auth });
    expect(cancel.statusCode).toBe(200);
    // Cancelled during the free trial, premium ends with the trial: nothing was paid.
    expect(live.trial_ends_at < live.renews_at).toBe(true);
    expect(cancel.json()).toEqual({ status: 'cancelled', ends_at: live.trial_ends_at });
    const cancelled = (await app.inject({ method: 'GET', url: '/api/subscription', headers: auth })).json();
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      renews_at: null,
      ends_at: live.trial_ends_at,
      can_resume: true,
    });

    // Still premium until the end, and still one subscription: a new checkout is refused.
    const again = await buy(app, auth, 'annual', 'create_crypto_payment');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('already_subscribed');

    const resume = await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth });
    expect(resume.statusCode).toBe(200);
    expect(resume.json()).toMatchObject({
      status: 'trialing',
      renews_at: live.renews_at,
      ends_at: null,
      can_resume: false,
    });
    // Cancelling twice or resuming twice is harmless.
    expect((await app.inject({ method: 'POST', url: '/api/subscription/resume', headers: auth })).statusCode).toBe(200);
    // Still in the trial: the activation grant waits for the first paid period (issue 26).
    expect(await balanceOf(db, user.id)).toBe(0);
  });

  it('activations at once: one subscription, one grant, the other payments flagged for refund', async () => {
    const { user, auth } = await createUser(app, db);
    // Checkouts opened before any was approved (tabs, or card and crypto).
    const ids = [
      idOf((await buy(app, auth, 'monthly')).json().url),
      idOf((await buy(app, auth, 'annual', 'create_crypto_payment')).json().url),
      idOf((await buy(app, auth, 'annual')).json().url),
      idOf((await buy(app, auth, 'monthly', 'create_crypto_payment')).json().url),
    ];
    const results = await Promise.all(ids.map((id) => decide(auth, id)));
    expect(results.map((r) => r.json().status)).toEqual(['paid', 'paid', 'paid', 'paid']);
    // The refused ones tell their page so (refunded, not granted).
    expect(results.filter((r) => r.json().refunded)).toHaveLength(3);
    const subs = rowsOf<{ status: string }>(
      await db.execute(sql`select status from subscriptions where user_id = ${user.id}`),
    );
    expect(subs).toHaveLength(1);
    // One grant at most: the crypto period that won is paid at once (+100); a card trial that
    // won gets it with its first paid period.
    expect(await balanceOf(db, user.id)).toBe(subs[0]!.status === 'active' ? 100 : 0);
    const flagged = rowsOf<{ id: string; status: string }>(
      await db.execute(
        sql`select id, status from payments where user_id = ${user.id} and refund_reason = 'duplicate_subscription'`,
      ),
    );
    expect(flagged).toHaveLength(3);
    expect(flagged.every((p) => ids.includes(p.id) && p.status === 'paid')).toBe(true);
  });

  it('the return path: a same-origin path goes through; absolute or other-origin URLs are a 400', async () => {
    const { auth } = await createUser(app, db);
    const ok = await buy(app, auth, 'pack_350', 'create_stripe', { return_path: '/luna?chat=42' });
    expect(ok.statusCode).toBe(200);
    expect(new URL(ok.json().url).searchParams.get('return')).toBe('/luna?chat=42');
    for (const [i, bad] of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'luna',
      '/ /evil',
      '/\t/evil.example',
      '',
      `/${'a'.repeat(600)}`,
    ].entries()) {
      // Each from its own address: the checkout's rate limit (10 a minute) is not what is tested.
      const res = await app.inject({
        method: 'POST',
        url: '/api/subscription/create_stripe/',
        headers: auth,
        remoteAddress: `10.0.0.${i + 1}`,
        payload: { plan: 'pack_350', return_path: bad },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
    const wrongType = await app.inject({
      method: 'POST',
      url: '/api/subscription/create_crypto_payment/',
      headers: auth,
      payload: { plan: 'pack_350', return_path: 42 },
    });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe('the contract', async () => {
  const { app } = await createTestApp();
  it('the subscription and sandbox routes are in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/subscription'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/subscription/resume'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/subscription/cancel_stripe'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/payments/sandbox/checkout/{id}/approve'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/payments/sandbox/checkout/{id}'] ?? {})).toContain('get');
  });
});

describe('return URLs', () => {
  it('the provider comes back to the same-origin path with the outcome and the plan', () => {
    expect(checkoutReturnUrl('https://r.example/', '/luna?chat=42&purchase=old', 'success', 'pack_350')).toBe(
      'https://r.example/luna?chat=42&purchase=success&plan=pack_350',
    );
    expect(checkoutReturnUrl('https://r.example', null, 'failed', 'monthly')).toBe(
      'https://r.example/?purchase=failed&plan=monthly',
    );
    expect(isSafeReturnPath('/chat/luna')).toBe(true);
    expect(isSafeReturnPath('//evil.example')).toBe(false);
    expect(isSafeReturnPath('/\\evil.example')).toBe(false);
  });
});
