import { describe, expect, it } from 'vitest';
import type { AdminOverview } from '@reverie/shared';
import { analyticsEvents, calls, payments, safetyEvents, takedownRequests } from '../../db/schema.js';
import { createTestApp } from '../../../test/helpers.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { rangeStart } from './overview.service.js';

const DAY = 86_400_000;

describe('admin: overview', async () => {
  const { app, database } = await createTestApp();
  const db = database.db;
  const admin = await createUser(app, db, { role: 'admin' });
  const overview = async (days = 7): Promise<AdminOverview> => {
    const res = await app.inject({ method: 'GET', url: `/api/admin/overview?days=${days}`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('refuses other ranges', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/admin/overview?days=12', headers: admin.auth });
    expect(res.statusCode).toBe(400);
  });

  it('answers numbers that match the seeded data, in UTC days', async () => {
    const before = await overview(7);
    expect(before.series).toHaveLength(7);
    expect(before.series.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));

    const now = Date.now();
    const old = new Date(now - 20 * DAY);
    // Two sign-ups in the range, one 20 days ago (outside 7 days, inside 30).
    const a = await createUser(app, db);
    const b = await createUser(app, db);
    const c = await createUser(app, db, { createdAt: old });
    const bot = await createBot(db);
    const chatA = await createChat(db, { userId: a.user.id, botId: bot.id });
    const chatC = await createChat(db, { userId: c.user.id, botId: bot.id });
    await createMessage(db, chatA);
    await createMessage(db, chatA);
    await createMessage(db, chatA, { role: 'bot', text: 'Hi' });
    await createMessage(db, chatC, { createdAt: old });
    await db.insert(calls).values([
      {
        userId: a.user.id,
        chatId: chatA.id,
        leaseUntil: new Date(),
        connectedAt: new Date(),
        endedAt: new Date(),
        secondsBilled: 150,
        resumeKeyHash: `k-${now}-1`,
      },
    ]);
    await db.insert(payments).values([
      { userId: a.user.id, provider: 'sandbox', plan: 'pack_350', amountCents: 499, currency: 'usd', status: 'paid' },
      { userId: a.user.id, provider: 'sandbox', plan: 'pack_1000', amountCents: 999, currency: 'usd', status: 'paid' },
      { userId: b.user.id, provider: 'sandbox', plan: 'pack_350', amountCents: 450, currency: 'eur', status: 'paid' },
      { userId: b.user.id, provider: 'sandbox', plan: 'pack_350', amountCents: 450, currency: 'eur', status: 'failed' },
    ]);
    await db.insert(safetyEvents).values([{ kind: 'crisis' }, { kind: 'minors_input' }, { kind: 'minors_input' }]);
    await db.insert(analyticsEvents).values(
      ['d1', 'd1', 'd2', 'd3'].map((deviceId) => ({
        name: 'page_changed',
        props: {},
        occurredAt: new Date(),
        deviceId,
      })),
    );
    await db.insert(takedownRequests).values([
      {
        reference: `TD-A${now}`,
        email: 'r@example.test',
        description: 'x',
        signature: 'R',
        createdAt: new Date(now - 49 * 3600_000),
      },
      { reference: `TD-B${now}`, email: 'r@example.test', description: 'x', signature: 'R' },
    ]);
    await createBot(db, { authorId: a.user.id, visibility: 'public', reviewState: 'pending' });

    const after = await overview(7);
    const delta = (key: keyof AdminOverview['totals']) => after.totals[key] - before.totals[key];
    expect(delta('signups')).toBe(2);
    expect(delta('messages')).toBe(2);
    expect(delta('active_users')).toBe(1);
    expect(delta('calls')).toBe(1);
    expect(delta('call_minutes')).toBe(3);
    expect(delta('paying_users')).toBe(2);
    expect(delta('crisis')).toBe(1);
    expect(delta('minors_input')).toBe(2);
    expect(after.revenue).toEqual([
      { currency: 'eur', amount_cents: 450, payments: 1 },
      { currency: 'usd', amount_cents: 1498, payments: 2 },
    ]);
    expect(after.funnel.visitors - before.funnel.visitors).toBe(3);
    expect(after.funnel.signups - before.funnel.signups).toBe(2);
    expect(after.funnel.first_message - before.funnel.first_message).toBe(1);
    expect(after.funnel.purchase - before.funnel.purchase).toBe(1);
    const today = after.series.at(-1)!;
    expect(today.messages).toBe(2);
    expect(today.active_users).toBe(1);
    expect(after.attention).toMatchObject({ takedown_overdue: 1, takedown_open: 2, characters_pending: 1 });

    // 30 days include the old sign-up and its message.
    const month = await overview(30);
    expect(month.series).toHaveLength(30);
    expect(month.totals.signups - after.totals.signups).toBe(1);
    expect(month.totals.messages - after.totals.messages).toBe(1);
    const oldDay = month.series.find((p) => p.day === old.toISOString().slice(0, 10))!;
    expect(oldDay.signups).toBeGreaterThanOrEqual(1);
  });

  it('revenue counts money received only: a $0 trial is no revenue, refunds subtract (issue 26)', async () => {
    const before = await overview(7);
    const trial = await createUser(app, db);
    const payer = await createUser(app, db);
    await db.insert(payments).values([
      // A trial checkout: nothing charged, not a paying user.
      {
        userId: trial.user.id,
        provider: 'stripe',
        plan: 'monthly',
        amountCents: 0,
        trialDays: 3,
        currency: 'usd',
        status: 'paid',
      },
      {
        userId: payer.user.id,
        provider: 'stripe',
        plan: 'monthly',
        amountCents: 1299,
        currency: 'usd',
        status: 'paid',
        refundedCents: 299,
      },
    ]);
    const after = await overview(7);
    const usd = (o: AdminOverview) => o.revenue.find((r) => r.currency === 'usd') ?? { amount_cents: 0, payments: 0 };
    expect(usd(after).amount_cents - usd(before).amount_cents).toBe(1000);
    expect(usd(after).payments - usd(before).payments).toBe(1);
    expect(after.totals.paying_users - before.totals.paying_users).toBe(1);
  });

  it('rangeStart is the first UTC midnight of the range', () => {
    expect(rangeStart(7, new Date('2026-03-10T23:30:00Z')).toISOString()).toBe('2026-03-04T00:00:00.000Z');
  });
});
