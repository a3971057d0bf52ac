import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { payments } from '../../db/schema.js';
import { signSandboxPayload } from '../../providers/payments/sandbox.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { WEBHOOK_PRUNE_QUEUE } from '../billing/index.js';
import { balanceOf, grantDesires } from '../../../test/billing-helpers.js';

const SANDBOX_SECRET = 'sandbox-secret-for-tests-0123456789';

describe('admin: payments and ledger', async () => {
  const { app, database } = await createTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET } });
  const db = database.db;
  const admin = await createUser(app, db, { role: 'admin' });
  const get = (url: string) => app.inject({ method: 'GET', url, headers: admin.auth });

  const webhook = (body: string, signature = signSandboxPayload(SANDBOX_SECRET, body)) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/webhook/sandbox',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      payload: body,
    });

  type Delivery = { event_id: string | null; outcome: string; http_status: number; payment_id: string | null };
  const deliveries = async (): Promise<Delivery[]> =>
    (await get('/api/admin/webhook-deliveries?size=100')).json().results;

  it('records a good and a duplicate delivery (never the body); a badly signed one is only counted in /metrics', async () => {
    const { user } = await createUser(app, db);
    const [payment] = await db
      .insert(payments)
      .values({ userId: user.id, provider: 'sandbox', plan: 'pack_350', amountCents: 499, currency: 'usd' })
      .returning();
    const body = JSON.stringify({ id: 'evt_admin_1', type: 'payment.succeeded', data: { payment_id: payment!.id } });
    expect((await webhook(body)).statusCode).toBe(200);
    expect((await webhook(body, signSandboxPayload('not-the-secret-at-all-000000', body))).statusCode).toBe(400);
    expect((await webhook(body, '')).statusCode).toBe(400);
    const unknown = await app.inject({ method: 'POST', url: '/api/payments/webhook/no-such-provider', payload: '{}' });
    expect(unknown.statusCode).toBe(400);
    expect((await webhook(body)).json()).toEqual({ received: true, duplicate: true });
    expect(await balanceOf(db, user.id)).toBe(350);

    await vi.waitFor(async () => expect(await deliveries()).toHaveLength(2));
    const [dup, good] = await deliveries();
    expect(good).toMatchObject({
      event_id: 'evt_admin_1',
      type: 'payment.succeeded',
      outcome: 'processed',
      http_status: 200,
      payment_id: payment!.id,
    });
    expect(dup).toMatchObject({ event_id: 'evt_admin_1', outcome: 'duplicate', http_status: 200 });
    const stored = JSON.stringify(rowsOf(await db.execute(sql`select * from webhook_deliveries`)));
    expect(stored).not.toContain(SANDBOX_SECRET);
    expect(stored).not.toContain('data');
    expect((await get('/api/admin/webhook-deliveries?outcome=rejected')).json().results).toEqual([]);

    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('payment_webhooks_rejected_total{provider="sandbox"} 2');
    expect(metrics).toContain('payment_webhooks_rejected_total{provider="unknown"} 1');

    // The payment is listed, newest first, with its user.
    const list = (await get(`/api/admin/payments?status=paid&user=${user.id}`)).json();
    expect(list.results).toEqual([
      expect.objectContaining({ id: payment!.id, status: 'paid', user_email: user.email, amount_cents: 499 }),
    ]);
    expect((await get('/api/admin/payments?status=failed')).json().results).toEqual([]);
  });

  it('a failure to record a delivery never changes the answer', async () => {
    await db.execute(sql`alter table webhook_deliveries rename to webhook_deliveries_away`);
    try {
      const body = JSON.stringify({ id: 'evt_admin_2', type: 'something.else', data: {} });
      const res = await webhook(body);
      expect(res.statusCode).toBe(200);
    } finally {
      await db.execute(sql`alter table webhook_deliveries_away rename to webhook_deliveries`);
    }
  });

  it('the ledger check reports all balances matching, and finds a planted mismatch', async () => {
    const { user } = await createUser(app, db);
    await grantDesires(db, user.id, 20);
    const ok = (await get('/api/admin/ledger/check')).json();
    expect(ok.mismatches).toEqual([]);
    expect(ok.checked_users).toBeGreaterThanOrEqual(2);

    await db.execute(sql`update users set num_tokens = 999 where id = ${user.id}`);
    try {
      const bad = (await get('/api/admin/ledger/check')).json();
      expect(bad.mismatches).toEqual([{ user_id: user.id, email: user.email, balance: 999, ledger_sum: 20 }]);
    } finally {
      await db.execute(sql`update users set num_tokens = 20 where id = ${user.id}`);
    }
  });

  it('payment pages keep rows that share a millisecond', async () => {
    const { user } = await createUser(app, db);
    for (const us of ['500100', '500200', '500300'])
      await db.insert(payments).values({
        userId: user.id,
        provider: 'sandbox',
        plan: 'pack_350',
        amountCents: 499,
        currency: 'usd',
        createdAt: sql`${`2026-02-01T00:00:00.${us}Z`}::timestamptz` as unknown as Date,
      });
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i += 1) {
      const page = (await get(`/api/admin/payments?user=${user.id}&size=1${cursor ? `&c=${cursor}` : ''}`)).json();
      seen.push(...page.results.map((r: { id: string }) => r.id));
      if (!page.next_param) break;
      cursor = page.next_param;
    }
    expect(new Set(seen).size).toBe(3);
  });

  it('deletes deliveries older than the retention, from the durable hourly job', async () => {
    await db.execute(sql`insert into webhook_deliveries (provider, outcome, http_status, received_at)
      values ('sandbox', 'processed', 200, now() - interval '91 days'),
             ('sandbox', 'processed', 200, now() - interval '89 days')`);
    const old = async () =>
      rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from webhook_deliveries where received_at < now() - interval '80 days'`,
        ),
      )[0]!.n;
    expect(await old()).toBe(2);
    // The job that is queued for the next hour, run now.
    await app.jobs.send(WEBHOOK_PRUNE_QUEUE, { period: 0 }, { singletonKey: 'now' });
    await vi.waitFor(async () => expect(await old()).toBe(1), { timeout: 15_000, interval: 200 });
    // It queued the next period's run (one, whoever schedules it).
    const [queued] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${WEBHOOK_PRUNE_QUEUE} and state = 'created'`,
      ),
    );
    expect(queued!.n).toBe(1);
  });
});
