/**
 * The author's note and the card's lorebook as the model receives them (docs/chat.md "Author's
 * note", docs/characters.md "Lorebook"): the real OpenAI-compatible client against the fake.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorNote, Chat, PromptTrace } from '@reverie/shared';
import { createBot } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { loreRandom } from './prompt.js';
import { createUser } from '../../../test/factories.js';

let t: TestApp;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: 'Mm.' } });
  t = await createTestApp({
    env: {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-model',
      CHAT_MESSAGES_PER_MINUTE: '1000',
    },
  });
});
afterAll(async () => {
  await fake?.close();
});

type Turn = { role: string; content: string };
const lastPrompt = () => fake.requests.at(-1)!.messages as Turn[];

async function chatWith(overrides: Parameters<typeof createBot>[1] = {}) {
  const { auth } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db, { name: 'Mira', greeting: 'Welcome aboard.', ...overrides });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/chat/create',
    headers: auth,
    payload: { botID: bot.id },
  });
  expect(res.statusCode).toBe(201);
  return { auth, chat: res.json<Chat>() };
}

async function send(auth: { authorization: string }, chatId: string, text: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).toContain('"state":"done"');
  // The user's message as saved: its id seeds the send's lorebook rolls.
  const saved = /event: user_message\ndata: (.+)\n/.exec(res.body);
  return (JSON.parse(saved![1]!) as { id: string }).id;
}

describe("the author's note", () => {
  it('goes into the prompt at its depth, as a system turn; empty, it is left out', async () => {
    const { auth, chat } = await chatWith();
    const url = `/api/chat/${chat.id}/author-note`;
    expect((await t.app.inject({ url, headers: auth })).json<AuthorNote>()).toEqual({ text: '', depth: 4 });
    for (const text of ['first', 'second', 'third']) await send(auth, chat.id, text);

    const put = await t.app.inject({
      method: 'PUT',
      url,
      headers: auth,
      payload: { text: '  Keep {{char}} mysterious; it is raining.  ', depth: 2 },
    });
    expect(put.json<AuthorNote>()).toEqual({ text: 'Keep {{char}} mysterious; it is raining.', depth: 2 });
    await send(auth, chat.id, 'fourth');
    let turns = lastPrompt();
    const note = turns.findIndex((m) => m.content === '[Keep Mira mysterious; it is raining.]');
    expect(note).toBeGreaterThan(0);
    expect(turns[note]!.role).toBe('system');
    // Two messages after it: the last reply and the newest user message.
    expect(turns.slice(note + 1).map((m) => m.content)).toEqual(['Mm.', 'fourth']);
    // "What went into the prompt" shows the note as the model read it: the name, not {{char}}.
    const shown = await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: auth });
    const reply = (shown.json() as { results: { id: string; role: string }[] }).results.find((m) => m.role === 'bot')!;
    const trace = await t.app.inject({ url: `/api/chat/${chat.id}/messages/${reply.id}/prompt`, headers: auth });
    expect(trace.statusCode, trace.body).toBe(200);
    expect(trace.json<PromptTrace>().author_note).toEqual({ text: 'Keep Mira mysterious; it is raining.', depth: 2 });

    // Depth 0: after the newest message.
    await t.app.inject({ method: 'PUT', url, headers: auth, payload: { text: 'Short answers.', depth: 0 } });
    await send(auth, chat.id, 'fifth');
    turns = lastPrompt();
    expect(turns.at(-1)).toEqual({ role: 'system', content: '[Short answers.]' });
    expect(turns.at(-2)!.content).toBe('fifth');

    // Deeper than the history: before the oldest message.
    await t.app.inject({ method: 'PUT', url, headers: auth, payload: { text: 'Deep.', depth: 100 } });
    await send(auth, chat.id, 'sixth');
    turns = lastPrompt();
    expect(turns[1]).toEqual({ role: 'system', content: '[Deep.]' });

    await t.app.inject({ method: 'PUT', url, headers: auth, payload: { text: '', depth: 3 } });
    await send(auth, chat.id, 'seventh');
    expect(lastPrompt().some((m) => m.content.startsWith('[Deep'))).toBe(false);
  });

  it('is validated, and another user cannot read or write it', async () => {
    const { auth, chat } = await chatWith();
    const url = `/api/chat/${chat.id}/author-note`;
    for (const payload of [
      { text: 'x'.repeat(2001), depth: 1 },
      { text: 'ok', depth: -1 },
      { text: 'ok', depth: 101 },
      { text: 'ok' },
    ]) {
      const res = await t.app.inject({ method: 'PUT', url, headers: auth, payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const other = await createUser(t.app, t.database.db);
    expect((await t.app.inject({ url, headers: other.auth })).statusCode).toBe(404);
    const put = await t.app.inject({ method: 'PUT', url, headers: other.auth, payload: { text: 'mine', depth: 1 } });
    expect(put.statusCode).toBe(404);
  });
});

describe("the card's lorebook", () => {
  const book = {
    scan_depth: 2,
    token_budget: 40,
    entries: [
      {
        keys: ['lighthouse'],
        content: 'LORE-LIGHTHOUSE: the lighthouse has been dark for ten years.',
        insertion_order: 2,
      },
      {
        keys: ['storm'],
        secondary_keys: ['harbour'],
        selective: true,
        content: 'LORE-STORM: storms close the harbour.',
        insertion_order: 1,
      },
      { keys: [], constant: true, content: 'LORE-CONSTANT: the town is called Vell.', insertion_order: 0 },
      {
        keys: ['map'],
        content: `LORE-BIG: ${'a very long description of the map '.repeat(20)}`,
        insertion_order: 3,
      },
    ],
  };
  const system = () => lastPrompt()[0]!.content;

  it('fires entries by key, needs a secondary key for selective ones, keeps constants, keeps to the budget', async () => {
    const { auth, chat } = await chatWith({ characterBook: book });
    await send(auth, chat.id, 'Tell me about the lighthouse.');
    expect(system()).toContain('LORE-LIGHTHOUSE');
    expect(system()).toContain('LORE-CONSTANT');
    expect(system()).not.toContain('LORE-STORM');
    // The constant entry comes first (insertion order).
    expect(system().indexOf('LORE-CONSTANT')).toBeLessThan(system().indexOf('LORE-LIGHTHOUSE'));

    await send(auth, chat.id, 'A storm is coming.');
    expect(system()).not.toContain('LORE-STORM'); // no secondary key
    await send(auth, chat.id, 'A storm is coming to the harbour.');
    expect(system()).toContain('LORE-STORM');

    // Beyond the scan depth (2 messages), the lighthouse is forgotten.
    await send(auth, chat.id, 'Anyway.');
    await send(auth, chat.id, 'Something else.');
    expect(system()).not.toContain('LORE-LIGHTHOUSE');

    // An entry larger than the book's budget (40 tokens) never goes in.
    await send(auth, chat.id, 'Show me the map.');
    expect(system()).not.toContain('LORE-BIG');
    expect(system()).toContain('LORE-CONSTANT');
  });

  it("rolls for entries with a probability, with the send's seeded random", async () => {
    const chancy = {
      entries: [
        {
          keys: ['bell'],
          content: 'LORE-HALF: the bell rings at noon.',
          extensions: { useProbability: true, probability: 50 },
        },
        {
          keys: ['bell'],
          content: 'LORE-THIRD: the bell is cracked.',
          extensions: { useProbability: true, probability: 30 },
        },
        {
          keys: ['bell'],
          content: 'LORE-ALWAYS: the bell is bronze.',
          extensions: { useProbability: false, probability: 1 },
        },
      ],
    };
    const { auth, chat } = await chatWith({ characterBook: chancy });
    const seen = { half: 0, third: 0 };
    for (let i = 0; i < 12; i++) {
      const id = await send(auth, chat.id, `Listen to the bell, ${i}.`);
      const roll = loreRandom(`${chat.id}:${id}`);
      const half = roll() * 100 < 50;
      const third = roll() * 100 < 30;
      expect(system().includes('LORE-HALF'), `send ${i}`).toBe(half);
      expect(system().includes('LORE-THIRD'), `send ${i}`).toBe(third);
      expect(system()).toContain('LORE-ALWAYS');
      seen.half += Number(half);
      seen.third += Number(third);
    }
    // The rolls do vary between sends.
    expect(seen.half).toBeGreaterThan(0);
    expect(seen.half).toBeLessThan(12);
  });
});
