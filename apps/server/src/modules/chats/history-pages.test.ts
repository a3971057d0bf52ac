/**
 * The history's pages in both directions (docs/chat.md "Long chats"): newer than a cursor, the
 * chat's first messages, around a date — and every one read through an index in a long chat.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { History } from '@reverie/shared';
import { rowsOf } from '../../db/client.js';
import { lastMessages, lastMessagesQuery } from './messages.repository.js';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const BASE = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A chat of `count` messages `m0`…, one a minute from 2026-01-01 00:00 UTC (one insert). */
async function longChat(count: number) {
  const { auth, user } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db);
  const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
  await t.database.db.execute(sql`
    insert into messages (chat_id, user_id, role, text, created_at)
    select ${chat.id}, ${user.id}, case when i % 2 = 0 then 'user' else 'bot' end, 'm' || i,
      ${new Date(BASE).toISOString()}::timestamptz + (i * interval '1 minute')
    from generate_series(0, ${count - 1}) as i`);
  return { auth, chat };
}

/** The largest number of times one node of a statement's plan ran (EXPLAIN ANALYZE). */
async function mostLoops(query: Parameters<typeof sql>[1]): Promise<number> {
  const [row] = rowsOf<Record<string, unknown>>(
    await t.database.db.execute(sql`explain (analyze, format json) ${query}`),
  );
  const value = Object.values(row!)[0];
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
  type PlanNode = { 'Actual Loops': number; Plans?: PlanNode[] };
  const most = (node: PlanNode): number => Math.max(node['Actual Loops'], ...(node.Plans ?? []).map(most));
  return most(plan[0]!.Plan);
}

async function page(auth: { authorization: string }, chatId: string, query: string): Promise<History> {
  const res = await t.app.inject({ url: `/api/chat/history/${chatId}${query}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<History>();
}

const texts = (h: History) => h.results.map((m) => m.text);
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `m${from - i}`);

describe('history pages in both directions', () => {
  it('reads the first page, then forward with `a` to the newest, with no gap or duplicate', async () => {
    const { auth, chat } = await longChat(25);
    const first = await page(auth, chat.id, '?size=10&from=first');
    expect(texts(first)).toEqual(range(9, 0));
    expect(first.next_param).toBeNull();
    const seen = [...texts(first).reverse()];
    let cursor = first.prev_param;
    while (cursor) {
      const next = await page(auth, chat.id, `?size=10&a=${cursor}`);
      seen.push(...texts(next).reverse());
      cursor = next.prev_param ?? null;
    }
    expect(seen).toEqual(range(24, 0).reverse());
  });

  it('opens around a date: the first message from that moment, half a page on each side', async () => {
    const { auth, chat } = await longChat(40);
    const at = new Date(BASE + 20 * MINUTE - 30_000).toISOString();
    const around = await page(auth, chat.id, `?size=10&at=${encodeURIComponent(at)}`);
    expect(texts(around)).toEqual(range(24, 15));
    expect(around.anchor_id).toBe(around.results.find((m) => m.text === 'm20')!.id);
    const older = await page(auth, chat.id, `?size=10&c=${around.next_param}`);
    expect(texts(older)).toEqual(range(14, 5));
    const newer = await page(auth, chat.id, `?size=10&a=${around.prev_param}`);
    expect(texts(newer)).toEqual(range(34, 25));

    // A plain date; a moment after every message gives the newest page and no anchor.
    expect(texts(await page(auth, chat.id, '?size=4&at=2026-01-01')).at(-1)).toBe('m0');
    const late = await page(auth, chat.id, '?size=4&at=2030-01-01');
    expect(late.anchor_id).toBeNull();
    expect(texts(late)).toEqual(range(39, 36));
  });

  it("a branch's jump to a date covers its whole history: the shared rows up to the fork, then its own", async () => {
    const { auth, chat } = await longChat(40);
    const root = await page(auth, chat.id, '?size=40');
    const fork = root.results.find((m) => m.text === 'm20')!;
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages/${fork.id}/branch`,
      headers: auth,
    });
    expect(made.statusCode, made.body).toBe(201);
    const branch = made.json<{ id: string }>();
    // The branch's own messages, written a day later: b0…b9, one a minute.
    await t.database.db.execute(sql`
      insert into messages (chat_id, user_id, role, text, created_at)
      select ${branch.id}, c.user_id, case when i % 2 = 0 then 'user' else 'bot' end, 'b' || i,
        ${new Date(BASE + 24 * 60 * MINUTE).toISOString()}::timestamptz + (i * interval '1 minute')
      from generate_series(0, 9) as i, chats c where c.id = ${chat.id}`);
    const day = (minutes: number) => encodeURIComponent(new Date(BASE + minutes * MINUTE - 30_000).toISOString());

    // A moment of the shared part: the root's rows, as the branch shows them.
    const shared = await page(auth, branch.id, `?size=10&at=${day(10)}`);
    expect(texts(shared)).toEqual(range(14, 5));
    expect(shared.anchor_id).toBe(shared.results.find((m) => m.text === 'm10')!.id);
    // After the fork, before the branch's own: its first own message (never the root's m21…).
    const afterFork = await page(auth, branch.id, `?size=4&at=${day(30)}`);
    expect(texts(afterFork)).toEqual(['b1', 'b0', 'm20', 'm19']);
    expect(afterFork.anchor_id).toBe(afterFork.results.find((m) => m.text === 'b0')!.id);
    // The root keeps its own: the same moment is its m30.
    expect((await page(auth, chat.id, `?size=4&at=${day(30)}`)).results.map((m) => m.text)).toContain('m30');
    // After every message of the branch: its newest page, no anchor.
    const late = await page(auth, branch.id, '?size=4&at=2030-01-01');
    expect(late.anchor_id).toBeNull();
    expect(texts(late)).toEqual(['b9', 'b8', 'b7', 'b6']);
  });

  it('refuses two directions at once, a bad date and a broken cursor with a 4xx', async () => {
    const { auth, chat } = await longChat(3);
    for (const query of ['?from=first&at=2026-01-01', '?at=yesterday', '?from=last']) {
      const res = await t.app.inject({ url: `/api/chat/history/${chat.id}${query}`, headers: auth });
      expect(res.statusCode, query).toBe(400);
    }
    const res = await t.app.inject({ url: `/api/chat/history/${chat.id}?a=%%%`, headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_cursor');
    const other = await createUser(t.app, t.database.db);
    const foreign = await t.app.inject({ url: `/api/chat/history/${chat.id}?from=first`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
  });

  it('reads the previews of long chats (the chats list, a chat opened) by their newest message alone', async () => {
    const a = await longChat(3000);
    const b = await longChat(3000);
    // Each reply answers the message before it: the alternatives are counted per reply group.
    await t.database.db.execute(sql`update messages m set reply_to = (select p.id from messages p
      where p.chat_id = m.chat_id and p.seq < m.seq order by p.seq desc limit 1)
      where m.chat_id in (${a.chat.id}, ${b.chat.id}) and m.role = 'bot'`);
    await t.database.db.execute(sql`analyze messages`);
    const last = await lastMessages(t.database.db, [a.chat.id, b.chat.id]);
    expect(last.get(a.chat.id)).toMatchObject({ text: 'm2999', altCount: 1 });
    expect(last.get(b.chat.id)).toMatchObject({ text: 'm2999', altCount: 1 });
    // No step runs once per message of the chats (it counted every message's alternatives:
    // 3.8 s for three chats of 3 000 messages on a busy machine).
    expect(await mostLoops(lastMessagesQuery(t.database.db, [a.chat.id, b.chat.id]))).toBeLessThanOrEqual(2);
  }, 60_000);

  it("reads every kind of page through the chat's index in a chat of 20 000 messages, whatever was written since", async () => {
    const { chat } = await longChat(20_000);
    // Newer messages of 200 other chats: a plan walking an index of `seq` alone backwards would
    // skip all of them to reach this chat's newest (the long-chat-story bench's 16–40 ms).
    const owner = await createUser(t.app, t.database.db);
    const otherBot = await createBot(t.database.db);
    await t.database.db.execute(sql`
      with c as (insert into chats (user_id, bot_id) select ${owner.user.id}, ${otherBot.id}
        from generate_series(1, 200) returning id)
      insert into messages (chat_id, user_id, role, text) select c.id, ${owner.user.id}, 'user', 'other ' || g
      from c, generate_series(1, 20) g`);
    await t.database.db.execute(sql`analyze messages`);
    const plans: string[] = [];
    const explain = async (query: ReturnType<typeof sql>) => {
      const rows = rowsOf<Record<string, string>>(await t.database.db.execute(sql`explain ${query}`));
      plans.push(rows.map((r) => Object.values(r)[0]).join('\n'));
    };
    await explain(sql`select id from messages where chat_id = ${chat.id} and selected order by seq desc limit 31`);
    await explain(
      sql`select id from messages where chat_id = ${chat.id} and selected and seq > 100 order by seq asc limit 31`,
    );
    await explain(sql`select seq from messages where chat_id = ${chat.id} and selected
      and created_at >= ${new Date(BASE + 5000 * MINUTE).toISOString()}::timestamptz order by created_at, seq limit 1`);
    await explain(sql`select max(seq) from messages where chat_id = ${chat.id}`);
    for (const plan of plans) {
      expect(plan).toMatch(/Index/);
      expect(plan).not.toMatch(/Seq Scan on messages/);
    }
    for (const i of [0, 1, 3]) expect(plans[i]).toMatch(/messages_chat_idx/);
    expect(plans[2]).toMatch(/messages_chat_created_idx/);
  }, 60_000);
});
