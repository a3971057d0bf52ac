import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../db/schema.js';
import { MemoryWindowCounter } from '../../providers/limits/index.js';
import type { WindowCount } from '../../providers/limits/index.js';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { parseSse, ScriptedLlm } from '../../../test/scripted-llm.js';

/**
 * The limits' counter of the app, in process, whose global per-IP hits can be held back
 * (`gate`) or refused (`refuse`); it notes every key it is asked to count, in order.
 */
class ObservedCounter extends MemoryWindowCounter {
  seen: string[] = [];
  refuse = false;
  gate: Promise<void> | null = null;

  override async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    this.seen.push(by === 1 ? key : `${key} ${by}`);
    if (key.startsWith('global:')) {
      if (this.refuse) return { count: 1_000_000, ttlMs: 30_000 };
      if (this.gate) await this.gate;
    }
    return super.hit(key, windowMs, by);
  }
}

const counter = new ObservedCounter();
const llm = new ScriptedLlm();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ llm, limits: counter, env: { CHAT_MESSAGES_PER_MINUTE: '30' } });
});
beforeEach(() => {
  counter.refuse = false;
  counter.gate = null;
  llm.script = { mode: 'pieces', pieces: ['Hello', ' there', '!'] };
});

async function chatOfMember() {
  const { user, auth } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db);
  const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
  return { user, auth, chat };
}

const sendTo = (
  chatId: string,
  headers: Record<string, string>,
  payload: Record<string, string> = { client_id: randomUUID(), text: 'Hi' },
) =>
  t.app.inject({ method: 'POST', url: `/api/chat/${chatId}/messages`, headers, payload, remoteAddress: '203.0.113.7' });

const rowsOf = (chatId: string) => t.database.db.select().from(messages).where(eq(messages.chatId, chatId));

describe('a send and the global per-IP limit', () => {
  it('counts the global limit with the fair-use limit and reads the chat meanwhile; asks nothing of the model before it is admitted', async () => {
    const { user, auth, chat } = await chatOfMember();
    let open!: () => void;
    counter.gate = new Promise((resolve) => (open = resolve));
    counter.seen = [];
    const asked = llm.requests.length;
    const sending = sendTo(chat.id, auth);
    // The handler already runs (it counts the fair-use limit) while the global count waits.
    await vi.waitFor(() => expect(counter.seen).toContain(`chat:${user.id}`));
    // Both counts are asked before either is answered (one statement on a shared counter).
    expect(counter.seen).toEqual(expect.arrayContaining([expect.stringMatching(/^global:/), `chat:${user.id}`]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(llm.requests.length).toBe(asked);
    expect(await rowsOf(chat.id)).toEqual([]);
    open();
    const res = await sending;
    expect(res.statusCode).toBe(200);
    const events = parseSse(res.body);
    expect(events[0]!.event).toBe('user_message');
    expect(events.at(-1)).toMatchObject({ event: 'bot_message', data: { state: 'done', text: 'Hello there!' } });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    // Counted once: the global limit's first hook leaves this route to its own deferred count.
    expect(counter.seen.filter((key) => key.startsWith('global:'))).toHaveLength(1);
  });

  it('over the limit: the same 429 with its headers, nothing written or asked, the fair-use count given back', async () => {
    const { user, auth, chat } = await chatOfMember();
    counter.refuse = true;
    counter.seen = [];
    const asked = llm.requests.length;
    const res = await sendTo(chat.id, auth);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBe(30);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(llm.requests.length).toBe(asked);
    expect(await rowsOf(chat.id)).toEqual([]);
    expect(counter.seen).toHaveLength(3);
    expect(counter.seen).toEqual(expect.arrayContaining([expect.stringMatching(/^global:/), `chat:${user.id}`]));
    expect(counter.seen[2]).toBe(`chat:${user.id} -1`);
    expect((await counter.peek(`chat:${user.id}`)).count).toBe(0);
  });

  it('a send refused before its handler (a guest, an invalid body) is counted all the same', async () => {
    const { auth, chat } = await chatOfMember();
    counter.seen = [];
    expect((await sendTo(chat.id, {})).statusCode).toBe(401);
    expect((await sendTo(chat.id, auth, { client_id: 'not a uuid', text: 'Hi' })).statusCode).toBe(400);
    // Counted once the answer is sent.
    await vi.waitFor(() => expect(counter.seen.filter((key) => key.startsWith('global:'))).toHaveLength(2));
    expect(counter.seen.some((key) => key.startsWith('chat:'))).toBe(false);
  });
});
