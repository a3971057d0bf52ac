import type { Message } from '@reverie/shared';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import type { Database } from '../../db/client.js';
import type { PromptBot } from './chat-context.repository.js';
import type { ChatRow } from './chats.repository.js';
import { Generation, type GenerationEvent } from './generations.js';
import type { ReplySaves } from './reply-saves.js';
import { GenerationRunner, type GenerationContext } from './runner.js';

/**
 * The runner's start signal, without a database: a reply started before its row is written
 * (`startBeforeRow`) asks the model at once, shows and saves nothing until the writer says
 * `written`, and leaves no trace when the writer says `refused`.
 */
function setUp() {
  const llm = new ScriptedLlm();
  const saved: { messageId: string; text: string; state?: string }[] = [];
  const saves = {
    progress: async (messageId: string, text: string) => void saved.push({ messageId, text }),
    final: async (messageId: string, values: { text: string; state: string }) =>
      void saved.push({ messageId, ...values }),
    close: async () => undefined,
  } as unknown as ReplySaves;
  const runner = new GenerationRunner({
    // Nothing here reads the database: no persona, no premium model, no minors event.
    db: {} as Database,
    llm,
    log: { warn: () => undefined, error: () => undefined },
    maxTokens: 256,
    temperature: 0.8,
    leaseMs: 15_000,
    saves,
  });
  const chat = {
    id: 'chat-1',
    userId: 'user-1',
    personaId: null,
    modelId: null,
    memory: '',
    authorNote: '',
    authorNoteDepth: 4,
  } as unknown as ChatRow;
  const bot = {
    id: 'bot-1',
    name: 'Mira',
    description: '',
    personality: [],
    personalityText: '',
    scenario: '',
    exampleMessages: '',
    systemPrompt: '',
    postHistoryInstructions: '',
    characterBook: null,
  } as unknown as PromptBot;
  const context: GenerationContext = {
    chat,
    bot,
    userName: 'Ann',
    locale: 'en',
    history: Promise.resolve([{ id: 'm1', seq: Number.MAX_SAFE_INTEGER, role: 'user', text: 'Hi', tokens: 1 }]),
  };
  const generation = new Generation('chat-1', 'user-1');
  const events: GenerationEvent[] = [];
  generation.subscribe((event) => events.push(event));
  return { llm, saved, runner, context, generation, events };
}

const reply = { id: 'reply-1', chat_id: 'chat-1', role: 'bot', text: '', state: 'streaming' } as unknown as Message;

describe('GenerationRunner.startBeforeRow', () => {
  it('asks the model before the row exists, and shows and saves the reply only once it is written', async () => {
    const { llm, saved, runner, context, generation, events } = setUp();
    const row = runner.startBeforeRow(generation, context);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(llm.requests).toHaveLength(1);
    expect(events).toEqual([]);
    expect(saved).toEqual([]);
    generation.bind(reply);
    row.written(7);
    await generation.done;
    expect(generation.text).toBe('Hello there!');
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data)).toEqual([
      { message_id: 'reply-1', text: 'Hello' },
      { message_id: 'reply-1', text: ' there' },
      { message_id: 'reply-1', text: '!' },
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'bot_message', data: { id: 'reply-1', state: 'done' } });
    expect(saved).toEqual([{ messageId: 'reply-1', text: 'Hello there!', state: 'done', errorCode: null }]);
    await runner.idle();
  });

  it('a refused row: the model request is aborted, nothing is shown or saved, the generation ends', async () => {
    const { llm, saved, runner, context, generation, events } = setUp();
    llm.script = { mode: 'then-hang', pieces: ['Hello'] };
    const row = runner.startBeforeRow(generation, context);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(llm.requests).toHaveLength(1);
    row.refused();
    await generation.done;
    await runner.idle();
    expect(generation.controller.signal.aborted).toBe(true);
    expect(events).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('a model that cannot answer waits for the row before it says so', async () => {
    const { llm, runner, context, generation, events } = setUp();
    llm.currentStatus = { ready: false, code: 'model_unavailable', detail: 'no model' };
    const row = runner.startBeforeRow(generation, context);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(llm.requests).toHaveLength(0);
    expect(events).toEqual([]);
    generation.bind(reply);
    row.written(7);
    await generation.done;
    expect(events.map((e) => e.event)).toEqual(['bot_message', 'error']);
    expect(events[1]).toMatchObject({ data: { code: 'model_unavailable', message_id: 'reply-1' } });
  });
});
