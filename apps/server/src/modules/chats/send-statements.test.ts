import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.js';
import { lorebookEntries, lorebooks, memories } from '../../db/schema.js';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { parseSse, ScriptedLlm } from '../../../test/scripted-llm.js';

/**
 * The statements one send costs the database (bench/README.md "Chat at a model's pace"): every
 * statement the app runs through its database handle is noted (drizzle's logger), and a plain
 * one-to-one send — the chat read, the rows written, the reply streamed and saved, and what
 * follows a reply — must not silently grow. A statement is the send's when its parameters name
 * the user, the chat, the character or one of the send's messages (the app's periodic sweeps
 * name none of them). The job queue's own statements (pg-boss) are not counted; the jobs a send
 * queues are, by name.
 */
const llm = new ScriptedLlm();
const seen: { query: string; params: string }[] = [];
/** How many statements had run when the model was asked (what the first token waits for). */
let atRequest = -1;
let t: TestApp;

const note = (query: string, params: unknown[]) => void seen.push({ query, params: JSON.stringify(params) });

beforeAll(async () => {
  const database = await createTestDatabase();
  const counted: DatabaseHandle =
    database.raw.kind === 'postgres'
      ? await openDatabase({ url: database.raw.url, poolSize: 5, logQuery: note })
      : await openDatabase({ pglite: database.raw.client, logQuery: note });
  // No sweep of dead replies during a count.
  t = await createTestApp({
    llm,
    database: counted,
    jobsSchema: 'pgboss',
    liveReplies: { sweepEveryMs: 3_600_000 },
  });
  const generate = llm.generate.bind(llm);
  llm.generate = (request) => {
    atRequest = seen.length;
    return generate(request);
  };
  const send = t.app.jobs.send.bind(t.app.jobs);
  t.app.jobs.send = ((name: string, ...rest: unknown[]) => {
    seen.push({ query: `job ${name}`, params: JSON.stringify(rest) });
    return (send as (...args: unknown[]) => Promise<unknown>)(name, ...rest);
  }) as typeof t.app.jobs.send;
});

/** Waits until no statement has run for a while (the hooks after a reply run in the background). */
async function settled(): Promise<void> {
  await t.app.replies.idle();
  for (let last = -1; last !== seen.length;) {
    last = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/**
 * Sends `text` in the pair's chat and answers the statements it cost (their text, in order):
 * those before the model was asked, and the jobs it queued.
 */
async function countSend(ids: { userId: string; botId: string; chatId: string }, auth: Auth, text = 'Tell me more') {
  await settled();
  seen.length = 0;
  atRequest = -1;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${ids.chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode).toBe(200);
  const events = parseSse(res.body);
  expect(events.at(-1)).toMatchObject({ event: 'bot_message', data: { state: 'done' } });
  await settled();
  const named = [ids.userId, ids.botId, ids.chatId, ...events.map((e) => (e.data as { id?: string }).id ?? ids.chatId)];
  const mine = seen.filter((s) => named.some((id) => s.params.includes(id)));
  const statements = mine.filter((s) => !s.query.startsWith('job ')).map((s) => s.query);
  const beforeModel = seen.slice(0, atRequest).filter((s) => mine.includes(s)).length;
  return { statements, beforeModel, jobs: mine.filter((s) => s.query.startsWith('job ')).map((s) => s.query) };
}

type Auth = { authorization: string };

/** The memories module's read of a prompt's memories (pinned and candidates), and the lorebooks module's of its books. */
const MEMORIES_READ = /memories_by_words\(|from memories p where p\.user_id = .* and p\.pinned/s;
const BOOKS_READ = /"lorebooks"\."global" = /;

async function pair() {
  const { user, auth } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db);
  const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
  return { user, bot, chat, auth };
}

describe('the statements of a send', () => {
  it('a plain one-to-one send (no memories, no lorebooks): 6 statements in all, 7 with the limits on PostgreSQL', async () => {
    const { user, bot, chat, auth } = await pair();
    const ids = { userId: user.id, botId: bot.id, chatId: chat.id };
    await countSend(ids, auth, 'Hello'); // the session read once, then cached
    const counted = await countSend(ids, auth);
    const list = counted.statements.join('\n---\n');
    if (process.env.SEND_STATEMENTS_LOG)
      console.log(
        `${counted.statements.length} statements, ${counted.beforeModel} before the model; jobs ${counted.jobs.join(', ')}\n${list}`,
      );
    // The chat with its history and what the pair has stored; the rows; the companion's look;
    // the final save with the prompt's trace; the unread badge; the memory's follow-up — and,
    // on PostgreSQL, the limits' count (in process on PGlite).
    expect(counted.statements, list).toHaveLength(t.database.driver === 'postgres' ? 7 : 6);
    // Nothing stored for the pair: its memories and books are not read (the chat's read
    // only asks whether there are any).
    expect(list).not.toMatch(MEMORIES_READ);
    expect(list).not.toMatch(BOOKS_READ);
  });

  it('a pair with a memory and a lorebook reads them into the prompt', async () => {
    const { user, bot, chat, auth } = await pair();
    await t.database.db.insert(memories).values({
      userId: user.id,
      botId: bot.id,
      kind: 'user',
      text: 'The user keeps bees on the roof',
      pinned: true,
      origin: 'user',
      dedupeKey: 'bees',
    });
    const [book] = await t.database.db
      .insert(lorebooks)
      .values({ userId: user.id, name: 'Coast', global: true })
      .returning();
    await t.database.db
      .insert(lorebookEntries)
      .values({ lorebookId: book!.id, uid: 1, keys: ['lighthouse'], content: 'The lighthouse keeper is called Ada' });
    const ids = { userId: user.id, botId: bot.id, chatId: chat.id };
    await countSend(ids, auth, 'Hello');
    const counted = await countSend(ids, auth, 'Tell me about the lighthouse');
    const prompt = JSON.stringify(llm.requests.at(-1)!.messages);
    expect(prompt).toContain('The user keeps bees on the roof');
    expect(prompt).toContain('The lighthouse keeper is called Ada');
    const list = counted.statements.join('\n---\n');
    if (process.env.SEND_STATEMENTS_LOG) console.log(`${counted.statements.length} statements\n${list}`);
    // The memories' and the books' reads come on top of the plain send's.
    expect(list).toMatch(MEMORIES_READ);
    expect(list).toMatch(BOOKS_READ);
    // The chat's last turns are known from the first send: its memories were read ahead — the
    // send's first statement, before the chat's read and before its rows were written
    // (docs/memory.md "Retrieval").
    const memoriesAt = counted.statements.findIndex((q) => MEMORIES_READ.test(q));
    const insertAt = counted.statements.findIndex((q) => /insert into "?messages"? /.test(q));
    expect(insertAt, list).toBeGreaterThan(0);
    expect(memoriesAt, list).toBe(0);
  });
});
