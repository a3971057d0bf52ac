import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { createTestApp } from '../../../test/helpers.js';
import { createUser } from '../../../test/factories.js';
import { balanceOf, expectLedgerMatchesBalances, grantDesires } from '../../../test/billing-helpers.js';

describe('admin: users', async () => {
  const { app, database } = await createTestApp();
  const db = database.db;
  const admin = await createUser(app, db, { role: 'admin', name: 'Alice Admin' });

  const post = (url: string, payload: unknown, headers = admin.auth) =>
    app.inject({ method: 'POST', url, headers, payload: payload as object });
  const get = (url: string, headers = admin.auth) => app.inject({ method: 'GET', url, headers });
  const auditOf = async (userId: string) =>
    rowsOf<{ action: string; before: unknown; after: unknown; reason: string | null; actor_email: string }>(
      await db.execute(
        sql`select action, before, after, reason, actor_email from audit_log where target_id = ${userId} order by id`,
      ),
    );
  const ledgerOf = async (userId: string) =>
    rowsOf<{ amount: number; reason: string; reference: string | null }>(
      await db.execute(sql`select amount, reason, reference from ledger_entries where user_id = ${userId} order by id`),
    );

  it('searches by name, username or e-mail, case-insensitively', async () => {
    const { user } = await createUser(app, db, { name: 'Zebulon Quartz', email: 'zq.search@example.test' });
    for (const q of ['zebulon', 'QUARTZ', 'zq.SEARCH@', user.username.slice(2).toUpperCase()]) {
      const res = await get(`/api/admin/users?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      expect(
        res.json().results.map((u: { id: string }) => u.id),
        q,
      ).toContain(user.id);
    }
    const none = await get('/api/admin/users?q=nobody-has-this-name-at-all');
    expect(none.json()).toMatchObject({ results: [], total: 0, next_offset: null });
    // `%` matches itself, not everything.
    expect((await get('/api/admin/users?q=%25')).json().total).toBe(0);
  });

  it("shows a user's page: profile, balance, payments, subscription, sessions", async () => {
    const { user } = await createUser(app, db);
    await grantDesires(db, user.id, 7);
    const res = await get(`/api/admin/users/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      email: user.email,
      balance: 7,
      role: 'user',
      banned_at: null,
      payments: [],
      subscription: null,
      sessions: [expect.objectContaining({ live: true })],
    });
    expect((await get(`/api/admin/users/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).statusCode).toBe(404);
  });

  it('a trial shows with the end date the subscriber sees, and its $0 payment as a trial (issue 26)', async () => {
    const { user, auth } = await createUser(app, db);
    const res = await app.inject({
      method: 'POST',
      url: '/api/subscription/create_stripe',
      headers: auth,
      payload: { plan: 'monthly' },
    });
    const id = new URL(res.json().url as string).pathname.split('/').pop()!;
    await app.inject({ method: 'POST', url: `/api/payments/sandbox/checkout/${id}/approve`, headers: auth });
    const mine = (await app.inject({ method: 'GET', url: '/api/subscription', headers: auth })).json();
    const page = (await get(`/api/admin/users/${user.id}`)).json();
    // The sandbox's row runs a period past the trial; the console shows the trial's real end.
    expect(page.subscription.view).toEqual(mine);
    expect(page.subscription.view).toMatchObject({ status: 'trialing' });
    expect(new Date(page.subscription.current_period_end) > new Date(mine.trial_ends_at)).toBe(true);
    expect(page.payments).toEqual([
      expect.objectContaining({ plan: 'monthly', amount_cents: 0, trial_days: 3, refunded_cents: 0, status: 'paid' }),
    ]);
    await expectLedgerMatchesBalances(db);
  });

  it('grant desires writes exactly one ledger entry with the reason and moves the balance', async () => {
    const { user } = await createUser(app, db);
    const res = await post(`/api/admin/users/${user.id}/desires`, { amount: 50, reason: 'Goodwill for outage' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().balance).toBe(50);
    expect(await ledgerOf(user.id)).toEqual([{ amount: 50, reason: 'adjustment', reference: 'Goodwill for outage' }]);
    expect(await balanceOf(db, user.id)).toBe(50);
    const audit = await auditOf(user.id);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'user.grant_desires',
        reason: 'Goodwill for outage',
        actor_email: admin.user.email,
        before: { balance: 0 },
        after: expect.objectContaining({ balance: 50, amount: 50 }),
      }),
    ]);
    // The ledger page shows it.
    const ledger = await get(`/api/admin/ledger?user=${user.id}`);
    expect(ledger.json().results).toEqual([expect.objectContaining({ amount: 50, reference: 'Goodwill for outage' })]);
    await expectLedgerMatchesBalances(db);
  });

  it('a reason is required; removing below zero is refused and writes nothing', async () => {
    const { user } = await createUser(app, db);
    await grantDesires(db, user.id, 10);
    const noReason = await post(`/api/admin/users/${user.id}/desires`, { amount: 5, reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    const tooMuch = await post(`/api/admin/users/${user.id}/desires`, { amount: -11, reason: 'Abuse' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('balance_would_go_negative');
    expect(await balanceOf(db, user.id)).toBe(10);
    expect(await ledgerOf(user.id)).toHaveLength(1);
    expect(await auditOf(user.id)).toEqual([]);
    const exact = await post(`/api/admin/users/${user.id}/desires`, { amount: -10, reason: 'Abuse' });
    expect(exact.statusCode).toBe(200);
    expect(await balanceOf(db, user.id)).toBe(0);
    expect((await auditOf(user.id)).map((a) => a.action)).toEqual(['user.remove_desires']);
    await expectLedgerMatchesBalances(db);
  });

  it('ban ends the sessions at once, is audited, and the user sees why at log-in; unban lets them back', async () => {
    const email = `banned_${Date.now()}@example.test`;
    const password = 'correct horse battery';
    await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: `banned${Date.now() % 100000}`, email, password, age_confirmed: true },
    });
    const login = () => app.inject({ method: 'POST', url: '/api/token', payload: { email, password } });
    const pair = (await login()).json() as { access: string };
    const userAuth = { authorization: `Bearer ${pair.access}` };
    const [row] = rowsOf<{ id: string }>(await db.execute(sql`select id from users where email = ${email}`));
    const userId = row!.id;
    expect((await get('/api/profile', userAuth)).statusCode).toBe(200);

    const ban = await post(`/api/admin/users/${userId}/ban`, { reason: 'Spamming other users' });
    expect(ban.statusCode, ban.body).toBe(200);
    expect((await get('/api/profile', userAuth)).statusCode).toBe(401);
    const refused = await login();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('account_banned');
    expect(refused.json().detail).toContain('Spamming other users');
    const detail = (await get(`/api/admin/users/${userId}`)).json();
    expect(detail.ban_reason).toBe('Spamming other users');
    expect(detail.sessions.every((s: { live: boolean }) => !s.live)).toBe(true);
    const [audit] = await auditOf(userId);
    expect(audit).toMatchObject({
      action: 'user.ban',
      reason: 'Spamming other users',
      before: { banned_at: null, ban_reason: null },
      after: { ban_reason: 'Spamming other users' },
    });

    expect((await post(`/api/admin/users/${userId}/unban`, {})).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
    expect((await auditOf(userId)).map((a) => a.action)).toEqual(['user.ban', 'user.unban']);
  });

  it('end sessions logs the user out everywhere', async () => {
    const { user, auth } = await createUser(app, db);
    expect((await post(`/api/admin/users/${user.id}/end-sessions`, {})).statusCode).toBe(200);
    expect((await get('/api/profile', auth)).statusCode).toBe(401);
    expect((await auditOf(user.id)).map((a) => a.action)).toEqual(['user.end_sessions']);
  });

  it('promote makes an administrator at once; demote takes it back', async () => {
    const { user, auth } = await createUser(app, db);
    expect((await get('/api/admin/overview', auth)).statusCode).toBe(403);
    expect((await post(`/api/admin/users/${user.id}/role`, { role: 'admin' })).statusCode).toBe(200);
    expect((await get('/api/admin/overview', auth)).statusCode).toBe(200);
    expect((await post(`/api/admin/users/${user.id}/role`, { role: 'user' })).statusCode).toBe(200);
    expect((await get('/api/admin/overview', auth)).statusCode).toBe(403);
    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({ action: 'user.promote', before: { role: 'user' }, after: { role: 'admin' } }),
      expect.objectContaining({ action: 'user.demote', before: { role: 'admin' }, after: { role: 'user' } }),
    ]);
  });

  it('an administrator cannot ban, delete or demote themselves', async () => {
    const me = admin.user.id;
    for (const [path, body] of [
      ['ban', { reason: 'x' }],
      ['delete', { reason: 'x' }],
      ['role', { role: 'user' }],
    ] as const) {
      const res = await post(`/api/admin/users/${me}/${path}`, body);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().code).toBe('admin_self_action');
    }
    expect((await get('/api/admin/overview')).statusCode).toBe(200);
  });

  it('delete removes the account and its data; the audit log keeps the record', async () => {
    const { user, auth } = await createUser(app, db);
    await grantDesires(db, user.id, 3);
    const res = await post(`/api/admin/users/${user.id}/delete`, { reason: 'Requested by e-mail' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(`/api/admin/users/${user.id}`)).statusCode).toBe(404);
    expect((await get('/api/profile', auth)).statusCode).toBe(401);
    expect(await ledgerOf(user.id)).toEqual([]);
    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({
        action: 'user.delete',
        reason: 'Requested by e-mail',
        before: expect.objectContaining({ email: user.email }),
      }),
    ]);
    expect((await post(`/api/admin/users/${user.id}/delete`, { reason: 'again' })).statusCode).toBe(404);
  });

  it('the audit log lists writes newest first, by action and by target, in keyset pages', async () => {
    const { user } = await createUser(app, db);
    for (let i = 1; i <= 3; i += 1) await post(`/api/admin/users/${user.id}/desires`, { amount: i, reason: `r${i}` });
    const first = (await get(`/api/admin/audit?target_type=user&target_id=${user.id}&size=2`)).json();
    expect(first.results.map((r: { reason: string }) => r.reason)).toEqual(['r3', 'r2']);
    const second = (
      await get(`/api/admin/audit?target_type=user&target_id=${user.id}&size=2&c=${first.next_param}`)
    ).json();
    expect(second.results.map((r: { reason: string }) => r.reason)).toEqual(['r1']);
    expect(second.next_param).toBeNull();
    const byAction = (await get('/api/admin/audit?action=user.grant_desires&size=100')).json();
    expect(byAction.results.every((r: { action: string }) => r.action === 'user.grant_desires')).toBe(true);
    expect((await get('/api/admin/audit?c=garbage!')).statusCode).toBe(400);
  });

  it('audit pages keep rows that share a millisecond (cursors keep the microseconds)', async () => {
    const target = '11111111-1111-4111-8111-111111111111';
    for (const us of ['123100', '123200', '123300'])
      await db.execute(sql`insert into audit_log (actor_email, action, target_type, target_id, created_at)
        values ('a@x.test', 'user.test', 'user', ${target}, ${`2026-01-01T00:00:00.${us}Z`}::timestamptz)`);
    const seen: number[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i += 1) {
      const page = (
        await get(`/api/admin/audit?target_type=user&target_id=${target}&size=1${cursor ? `&c=${cursor}` : ''}`)
      ).json();
      seen.push(...page.results.map((r: { id: number }) => r.id));
      if (!page.next_param) break;
      cursor = page.next_param;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });
});
