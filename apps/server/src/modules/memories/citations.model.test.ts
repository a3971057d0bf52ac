import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, Memory, Message } from '@reverie/shared';
import { createBot, createUser } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { CITATION_INSTRUCTION } from './index.js';

/**
 * MEMORY_CITATIONS=model end to end against the fake OpenAI-compatible server: the prompt labels
 * its memories and asks for the marker, the marker never reaches the stream or the saved reply,
 * and the "remembered" mark records the memories the model named (not those the words overlap).
 */
let fake: FakeOpenAi;
let t: TestApp;
let replyText = '';

beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.setResponder((body) => (body.response_format ? JSON.stringify({ operations: [] }) : replyText));
  t = await createTestApp({
    env: {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-model',
      MEMORY_EXTRACT_DELAY_S: '0',
      MEMORY_CITATIONS: 'model',
    },
  });
});
afterAll(async () => {
  await t?.app.close();
  await fake?.close();
});

describe('citations asked of the model', () => {
  it('labels the memories, strips the marker from the stream and the saved reply, and records what the model named', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { name: 'Mia' });
    const chat = (
      await t.app.inject({ method: 'POST', url: '/api/chat/create', headers: auth, payload: { botID: bot.id } })
    ).json<Chat>();
    const add = async (text: string, extra: Record<string, unknown> = {}) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/characters/${bot.id}/memories`,
          headers: auth,
          payload: { text, kind: 'user', ...extra },
        })
      ).json<Memory>();
    const name = await add('The user is called Alex.', { pinned: true, importance: 5 });
    const guitar = await add('Alex plays the guitar in a band called Blue Owls.');

    // The words overlap the band's memory; the model names only the first (the name).
    replyText = 'Your band Blue Owls and your guitar, of course!\n[[cite: m1]]';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'Do you remember my guitar band?' },
    });
    expect(res.statusCode).toBe(200);
    await t.app.replies.idle();
    await t.app.memories.idle();
    expect(res.body).not.toContain('[[cite');
    expect(res.body).not.toContain('m1]]');

    const request = fake.requests.filter((r) => !r.response_format).at(-1)!;
    const system = (request.messages as { role: string; content: string }[]).find((m) => m.role === 'system')!.content;
    expect(system).toContain(CITATION_INSTRUCTION);
    expect(system).toContain('[m1] ');
    expect(system).toContain('[m2] ');

    const history = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    const reply = history.json<{ results: Message[] }>().results.find((m) => m.role === 'bot' && m.notice === null)!;
    expect(reply.text).toBe('Your band Blue Owls and your guitar, of course!');
    expect(reply.memories).toEqual({ in_prompt: [name.id, guitar.id], drew_on: [name.id] });

    // No marker: nothing drawn on, whatever the words share.
    replyText = 'Blue Owls! Alex and the guitar!';
    await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'And now?' },
    });
    await t.app.replies.idle();
    await t.app.memories.idle();
    const again = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    // The history answers the newest first.
    const second = again.json<{ results: Message[] }>().results.find((m) => m.role === 'bot' && m.notice === null)!;
    expect(second.text).toBe('Blue Owls! Alex and the guitar!');
    expect(second.memories?.drew_on, JSON.stringify(second)).toEqual([]);
  });
});
