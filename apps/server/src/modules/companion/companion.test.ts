import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompanion, CompanionSettings, Message } from '@reverie/shared';
import { companionSettings, companionSlots, messages, safetyEvents, users } from '../../db/schema.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import type { ProactiveNotice } from './index.js';

/**
 * The companion (docs/companion.md): settings, the chat toggle, her message written through the
 * reply's prompt, and every care rule — each on its own user, slots made due directly.
 */
let t: TestApp;
const llm = new ScriptedLlm();
const notices: ProactiveNotice[] = [];
const never = new AbortController().signal;

beforeAll(async () => {
  t = await createTestApp({
    llm,
    env: { COMPANION_TICK_S: '3600', CHAT_MESSAGES_PER_MINUTE: '100' },
    proactiveNotify: async (notice) => void notices.push(notice),
  });
});

/** A user with a chat whose history mentions the lighthouse (a lorebook key), quiet hours off. */
async function setUp(settings: Partial<typeof companionSettings.$inferInsert> = {}) {
  const { user, auth } = await createUser(t.app, t.database.db, { isEmailConfirmed: true });
  const bot = await createBot(t.database.db, {
    name: 'Mia',
    characterBook: { entries: [{ keys: ['lighthouse'], content: 'LORE: the lighthouse is where they met.' }] },
  });
  const chat = await createChat(t.database.db, {
    userId: user.id,
    botId: bot.id,
    memory: 'MEMORY: the user adopted a cat called Pixel.',
    disclosedAt: new Date(),
  });
  await createMessage(t.database.db, chat, { text: 'I walked to the lighthouse today.' });
  await createMessage(t.database.db, chat, { role: 'bot', text: 'It sounds lovely.' });
  await t.database.db
    .insert(companionSettings)
    .values({ userId: user.id, timeZone: 'UTC', quietStart: 0, quietEnd: 0, ...settings });
  return { user, auth, bot, chat };
}

/** Makes the chat's slot due (planned `agoMs` ago). */
async function dueSlot(chatId: string, userId: string, agoMs = 60_000) {
  const at = new Date(Date.now() - agoMs);
  await t.database.db
    .insert(companionSlots)
    .values({ chatId, userId, frequency: 'daily', slotAt: at, dueAt: at })
    .onConflictDoUpdate({ target: companionSlots.chatId, set: { slotAt: at, dueAt: at, attempts: 0 } });
}

const proactive = (chatId: string) =>
  t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), sql`${messages.proactiveSlot} is not null`));

const slotOf = async (chatId: string) =>
  (await t.database.db.select().from(companionSlots).where(eq(companionSlots.chatId, chatId)))[0];

describe('settings and the chat toggle', () => {
  it('answers the defaults, saves changes, and turns a chat on and off (404 for another user’s chat)', async () => {
    const { auth, user, bot } = await createUser(t.app, t.database.db).then(async (u) => ({
      ...u,
      bot: await createBot(t.database.db),
    }));
    const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
    const res = await t.app.inject({ method: 'GET', url: '/api/companion/settings', headers: auth });
    expect(res.json<CompanionSettings>()).toEqual({
      time_zone: null,
      quiet_start: '22:00',
      quiet_end: '09:00',
      daily_cap: 3,
      email_digest: false,
      email_verified: false,
    });
    const off = await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}/companion`, headers: auth });
    expect(off.json<ChatCompanion>()).toMatchObject({ frequency: 'off', next_at: null });

    const on = await t.app.inject({
      method: 'PUT',
      url: `/api/chat/${chat.id}/companion`,
      headers: auth,
      payload: { frequency: 'daily', time_zone: 'Europe/Berlin' },
    });
    expect(on.statusCode).toBe(200);
    const next = new Date(on.json<ChatCompanion>().next_at!);
    expect(next.getTime()).toBeGreaterThan(Date.now() + 12 * 3600_000);
    const settings = await t.app.inject({ method: 'GET', url: '/api/companion/settings', headers: auth });
    expect(settings.json<CompanionSettings>().time_zone).toBe('Europe/Berlin');

    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/api/companion/settings',
      headers: auth,
      payload: { quiet_start: '23:30', quiet_end: '07:15', daily_cap: 5, email_digest: true },
    });
    expect(patched.json<CompanionSettings>()).toMatchObject({ quiet_start: '23:30', quiet_end: '07:15', daily_cap: 5 });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/companion/settings',
      headers: auth,
      payload: { quiet_start: '25:00', time_zone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);

    const other = await createUser(t.app, t.database.db);
    for (const method of ['GET', 'PUT'] as const) {
      const res404 = await t.app.inject({
        method,
        url: `/api/chat/${chat.id}/companion`,
        headers: other.auth,
        ...(method === 'PUT' ? { payload: { frequency: 'daily' } } : {}),
      });
      expect(res404.statusCode).toBe(404);
    }
    const stopped = await t.app.inject({
      method: 'PUT',
      url: `/api/chat/${chat.id}/companion`,
      headers: auth,
      payload: { frequency: 'off' },
    });
    expect(stopped.json<ChatCompanion>()).toMatchObject({ frequency: 'off', next_at: null });
    expect(await slotOf(chat.id)).toBeUndefined();
  });
});

describe('her message', () => {
  it('is written with the reply’s prompt (memory, lorebook, history) and the instruction, marked, and notified', async () => {
    const { user, chat, auth } = await setUp();
    await dueSlot(chat.id, user.id);
    llm.script = { mode: 'pieces', pieces: ['How was the walk', ' to the lighthouse?'] };
    llm.requests = [];
    const counts = await t.app.companion.runDue(never);
    expect(counts.sent).toBeGreaterThanOrEqual(1);
    const request = llm.requests.find((r) => r.messages.some((m) => m.content.includes('MEMORY: the user adopted')));
    expect(request).toBeDefined();
    const system = request!.messages[0]!.content;
    expect(system).toContain('LORE: the lighthouse is where they met.');
    expect(system).toContain('Platform rules');
    expect(request!.messages.some((m) => m.content === 'I walked to the lighthouse today.')).toBe(true);
    const last = request!.messages.at(-1)!;
    expect(last.role).toBe('system');
    expect(last.content).toContain('Mia writes first');
    expect(last.content).toMatch(/Never a generic greeting/);

    const [written] = await proactive(chat.id);
    expect(written).toMatchObject({ role: 'bot', text: 'How was the walk to the lighthouse?', state: 'done' });
    const history = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    const items = history.json<{ results: Message[] }>().results;
    expect(items.find((m) => m.id === written!.id)?.proactive).toBe(true);
    expect(items.find((m) => m.text === 'It sounds lovely.')?.proactive).toBe(false);

    const notice = notices.find((n) => n.chatId === chat.id)!;
    expect(notice).toMatchObject({
      userId: user.id,
      messageId: written!.id,
      characterName: 'Mia',
      firstWords: 'How was the walk to the lighthouse?',
      explicit: false,
    });
    expect(notice.settingsUrl).toMatch(/\/settings#companion$/);
    // Free: no desire, token or fair-use count is spent.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.numTokens).toBe(0);
    // The next slot is planned; the digest waits for it.
    const slot = await slotOf(chat.id);
    expect(slot!.dueAt!.getTime()).toBeGreaterThan(Date.now() + 3600_000);
    expect(slot!.attempts).toBe(0);
    const [settings] = await t.database.db
      .select()
      .from(companionSettings)
      .where(eq(companionSettings.userId, user.id));
    expect(settings).toMatchObject({ unanswered: 1, dayCount: 1 });
    expect(settings!.digestPendingSince).not.toBeNull();
  });

  it('opens with the AI disclosure when the conversation it starts needs one', async () => {
    const { user, chat } = await setUp();
    await t.database.db.execute(
      sql`update chats set disclosed_at = now() - interval '1 day', updated_at = now() - interval '1 day' where id = ${chat.id}`,
    );
    await dueSlot(chat.id, user.id);
    llm.script = { mode: 'pieces', pieces: ['Did Pixel sleep well?'] };
    await t.app.companion.runDue(never);
    const rows = await t.database.db.select().from(messages).where(eq(messages.chatId, chat.id));
    const disclosure = rows.find((m) => m.notice === 'ai_disclosure');
    const mine = rows.find((m) => m.proactiveSlot !== null);
    expect(disclosure).toBeDefined();
    expect(disclosure!.seq).toBeLessThan(mine!.seq);
  });

  it('a slot already written is never written twice (its key is unique per chat)', async () => {
    const { user, chat } = await setUp();
    await dueSlot(chat.id, user.id);
    const slot = await slotOf(chat.id);
    await createMessage(t.database.db, chat, {
      role: 'bot',
      text: 'Written before the replica died',
      proactiveSlot: slot!.slotAt,
    });
    const counts = await t.app.companion.runDue(never);
    expect(counts.duplicate).toBeGreaterThanOrEqual(1);
    expect(await proactive(chat.id)).toHaveLength(1);
  });

  it('a failing model: retried once, then skipped and planned again', async () => {
    const { user, chat } = await setUp();
    await dueSlot(chat.id, user.id);
    llm.script = { mode: 'fail', code: 'provider_error' };
    expect((await t.app.companion.runDue(never)).failed).toBeGreaterThanOrEqual(1);
    expect((await slotOf(chat.id))!.attempts).toBe(1);
    // The retry, made due now.
    await t.database.db
      .update(companionSlots)
      .set({ dueAt: new Date(Date.now() - 1000) })
      .where(eq(companionSlots.chatId, chat.id));
    await t.app.companion.runDue(never);
    expect((await slotOf(chat.id))!.attempts).toBe(2);
    await t.database.db
      .update(companionSlots)
      .set({ dueAt: new Date(Date.now() - 1000) })
      .where(eq(companionSlots.chatId, chat.id));
    llm.script = { mode: 'pieces', pieces: ['Too late'] };
    expect((await t.app.companion.runDue(never)).skipped_retries).toBeGreaterThanOrEqual(1);
    expect(await proactive(chat.id)).toHaveLength(0);
    const slot = await slotOf(chat.id);
    expect(slot).toMatchObject({ attempts: 0 });
    expect(slot!.dueAt!.getTime()).toBeGreaterThan(Date.now());
    llm.script = { mode: 'pieces', pieces: ['Hello', ' there', '!'] };
  });
});

describe('care rules', () => {
  it('stops after two unanswered messages, until the user writes again', async () => {
    const { user, chat, auth } = await setUp({ dailyCap: 10 });
    llm.script = { mode: 'pieces', pieces: ['Thinking of the lighthouse.'] };
    for (let i = 0; i < 3; i++) {
      await dueSlot(chat.id, user.id, 60_000 + i);
      await t.app.companion.runDue(never);
    }
    expect(await proactive(chat.id)).toHaveLength(2);
    const slot = await slotOf(chat.id);
    expect(slot!.dueAt).toBeNull(); // paused
    // The user writes: the rule is lifted and her slot planned again.
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { text: 'I am back!', client_id: crypto.randomUUID() },
    });
    expect(sent.statusCode).toBe(200);
    await t.app.replies.idle();
    await t.app.companion.idle();
    const [settings] = await t.database.db
      .select()
      .from(companionSettings)
      .where(eq(companionSettings.userId, user.id));
    expect(settings!.unanswered).toBe(0);
    expect((await slotOf(chat.id))!.dueAt).not.toBeNull();
  });

  it('none for 7 days after the crisis protocol fired in any of the user’s chats', async () => {
    const { user, chat } = await setUp();
    await t.database.db
      .insert(safetyEvents)
      .values({ userId: user.id, kind: 'crisis', createdAt: new Date(Date.now() - 6 * 24 * 3600_000) });
    await dueSlot(chat.id, user.id);
    expect((await t.app.companion.runDue(never)).deferred_crisis).toBeGreaterThanOrEqual(1);
    expect(await proactive(chat.id)).toHaveLength(0);
    const due = (await slotOf(chat.id))!.dueAt!;
    expect(due.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // Eight days after: she may write.
    const other = await setUp();
    await t.database.db
      .insert(safetyEvents)
      .values({ userId: other.user.id, kind: 'crisis', createdAt: new Date(Date.now() - 8 * 24 * 3600_000) });
    await dueSlot(other.chat.id, other.user.id);
    await t.app.companion.runDue(never);
    expect(await proactive(other.chat.id)).toHaveLength(1);
  });

  it('none to a banned account, nor to one under 18; a deleted account’s slots go with it', async () => {
    const banned = await setUp();
    await t.database.db
      .update(users)
      .set({ bannedAt: new Date(), banReason: 'test' })
      .where(eq(users.id, banned.user.id));
    await dueSlot(banned.chat.id, banned.user.id);
    const minor = await setUp();
    await t.database.db.update(users).set({ age: 17 }).where(eq(users.id, minor.user.id));
    await dueSlot(minor.chat.id, minor.user.id);
    const counts = await t.app.companion.runDue(never);
    expect(counts.deferred_account).toBeGreaterThanOrEqual(2);
    expect(await proactive(banned.chat.id)).toHaveLength(0);
    expect(await proactive(minor.chat.id)).toHaveLength(0);

    const deleted = await setUp();
    await dueSlot(deleted.chat.id, deleted.user.id);
    await t.database.db.delete(users).where(eq(users.id, deleted.user.id));
    expect(await slotOf(deleted.chat.id)).toBeUndefined();
  });

  it('none during the quiet hours of the user’s own time zone', async () => {
    // Quiet hours around the current local time in Tokyo.
    const now = new Date();
    const tokyoMinutes = (now.getUTCHours() * 60 + now.getUTCMinutes() + 9 * 60) % 1440;
    const { user, chat } = await setUp({
      timeZone: 'Asia/Tokyo',
      quietStart: (tokyoMinutes + 1440 - 60) % 1440,
      quietEnd: (tokyoMinutes + 60) % 1440,
    });
    await dueSlot(chat.id, user.id);
    expect((await t.app.companion.runDue(never)).deferred_quiet).toBeGreaterThanOrEqual(1);
    expect(await proactive(chat.id)).toHaveLength(0);
    const due = (await slotOf(chat.id))!.dueAt!;
    expect(due.getTime()).toBeGreaterThanOrEqual(now.getTime() + 59 * 60_000);
    // The same instant, the same hours, in New York (14 hours behind in winter, 13 in summer): she writes.
    const ny = await setUp({
      timeZone: 'America/New_York',
      quietStart: (tokyoMinutes + 1440 - 60) % 1440,
      quietEnd: (tokyoMinutes + 60) % 1440,
    });
    await dueSlot(ny.chat.id, ny.user.id);
    await t.app.companion.runDue(never);
    expect(await proactive(ny.chat.id)).toHaveLength(1);
  });

  it('at most the daily cap across all the user’s characters', async () => {
    // A cap of one (two would meet the silence rule first).
    const { user, chat } = await setUp({ dailyCap: 1 });
    const bots = await Promise.all([createBot(t.database.db), createBot(t.database.db)]);
    const chats = [
      chat,
      ...(await Promise.all(bots.map((b) => createChat(t.database.db, { userId: user.id, botId: b.id })))),
    ];
    for (const c of chats) await dueSlot(c.id, user.id);
    const counts = await t.app.companion.runDue(never);
    expect(counts.deferred_cap).toBeGreaterThanOrEqual(2);
    const written = (await Promise.all(chats.map((c) => proactive(c.id)))).flat();
    expect(written).toHaveLength(1);
    // Deferred to the user's next local day.
    for (const c of chats) {
      const slot = await slotOf(c.id);
      if (written[0]!.chatId !== c.id) expect(slot!.dueAt!.getUTCDate()).not.toBe(new Date().getUTCDate());
    }
  });

  it('after downtime, a missed slot is sent only within the catch-up window', async () => {
    const fresh = await setUp();
    await dueSlot(fresh.chat.id, fresh.user.id, 30 * 60_000); // 30 min late: within 120 min
    const stale = await setUp();
    await dueSlot(stale.chat.id, stale.user.id, 26 * 3600_000); // a day of downtime
    const counts = await t.app.companion.runDue(never);
    expect(counts.skipped_stale).toBeGreaterThanOrEqual(1);
    expect(await proactive(fresh.chat.id)).toHaveLength(1);
    expect(await proactive(stale.chat.id)).toHaveLength(0);
    expect((await slotOf(stale.chat.id))!.dueAt!.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('the e-mail digest', () => {
  it('"Mia wrote to you": once a day, only to a verified address that has not unsubscribed, with the one-click unsubscribe', async () => {
    const { user, chat } = await setUp({ emailDigest: true });
    const unverified = await setUp({ emailDigest: true });
    await t.database.db.update(users).set({ isEmailConfirmed: false }).where(eq(users.id, unverified.user.id));
    const notChosen = await setUp({ emailDigest: false });
    for (const u of [{ user, chat }, unverified, notChosen]) await dueSlot(u.chat.id, u.user.id);
    llm.script = { mode: 'pieces', pieces: ['Pixel misses you.'] };
    await t.app.companion.runDue(never);
    const { sendDigests } = await import('./digest.js');
    const outbox: {
      to: string;
      subject: string;
      text: string;
      headers: Record<string, string>;
      userId: string | null;
    }[] = [];
    const deps = {
      db: t.database.db,
      mail: { name: 'capture', send: async (m: (typeof outbox)[number]) => void outbox.push(m) },
      edition: (await import('@reverie/shared')).getEdition(t.config.APP_NAME),
      publicUrl: t.config.PUBLIC_URL,
      log: { warn: () => undefined },
      unsubscribeToken: (id: string) => t.app.accounts.unsubscribeToken(id),
    };
    await sendDigests(deps as never);
    const mine = outbox.filter((m) => m.userId === user.id);
    expect(mine).toHaveLength(1);
    expect(outbox.some((m) => m.userId === unverified.user.id || m.userId === notChosen.user.id)).toBe(false);
    expect(mine[0]!.subject).toBe('Mia wrote to you');
    expect(mine[0]!.text).toContain('/settings#companion');
    expect(mine[0]!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Another message the same day: no second digest.
    await dueSlot(chat.id, user.id);
    await t.app.companion.runDue(never);
    await sendDigests(deps as never);
    expect(outbox.filter((m) => m.userId === user.id)).toHaveLength(1);
    // The one-click unsubscribe stops it.
    await t.database.db
      .update(companionSettings)
      .set({ digestSentAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(companionSettings.userId, user.id));
    const token = t.app.accounts.unsubscribeToken(user.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    await sendDigests(deps as never);
    expect(outbox.filter((m) => m.userId === user.id)).toHaveLength(1);
  });
});
