import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { memories } from '../../db/schema.js';
import { fakeEmbedding } from '../../../test/fake-embedder.js';
import { countedMemoryPair, userMemoryValues } from '../../../test/memory-pair.js';
import { standaloneMemories } from '../../../test/standalone-memories.js';

/**
 * A prompt's memories with embeddings on (docs/memory.md "Embeddings"): the newest memories —
 * the semantic candidates that share no word with the turns — come in the prompt's one
 * statement, and the turns' embedding is waited for at most `embedWaitMs`: a slow embeddings
 * endpoint leaves the prompt ranked by words, it never holds a reply back.
 */
let db: DatabaseHandle['db'];
const statements: string[] = [];
let userId = '';
let botId = '';
let puppy = '';
let bees = '';

const service = (embed: (texts: string[], signal?: AbortSignal) => Promise<number[][]>, embedWaitMs?: number) =>
  standaloneMemories(db, { llm: { embed }, embedWaitMs });

beforeAll(async () => {
  ({ db, userId, botId } = await countedMemoryPair('emb', statements));
  const add = async (text: string) => {
    const [row] = await db
      .insert(memories)
      .values(userMemoryValues(userId, botId, text, fakeEmbedding(text)))
      .returning({ id: memories.id });
    return row!.id;
  };
  // "puppy" shares no search term with "dog"; the test embedder puts both in one concept.
  puppy = await add('Alex adopted a puppy last spring.');
  bees = await add('Alex keeps bees on the roof.');
});

describe('prompt memories with embeddings', () => {
  it('finds a memory by meaning alone, in one statement', async () => {
    const s = service(async (texts) => texts.map(fakeEmbedding));
    statements.length = 0;
    const got = await s.forPrompt({ userId, botId, turns: ['How is my dog?'], budgetTokens: 600 });
    expect(got.ids).toEqual([puppy]);
    expect(statements).toHaveLength(1);
    // Words alone do not find it.
    const words = await service(async () => [])
      .forPrompt({ userId, botId, turns: ['How is my dog?'], budgetTokens: 600 })
      .catch(() => null);
    expect(words?.ids ?? []).not.toContain(puppy);
    expect((await s.forPrompt({ userId, botId, turns: ['Any news of the bees?'], budgetTokens: 600 })).ids[0]).toBe(
      bees,
    );
  });

  it('gives up a slow embedding after embedWaitMs and ranks by words', async () => {
    let aborted = false;
    const hanging = (_texts: string[], signal?: AbortSignal) =>
      new Promise<number[][]>((_resolve, reject) =>
        signal?.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        }),
      );
    const started = performance.now();
    const got = await service(hanging, 100).forPrompt({
      userId,
      botId,
      turns: ['How is my dog? And the bees?'],
      budgetTokens: 600,
    });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(aborted).toBe(true);
    expect(got.ids).toEqual([bees]);
  });
});
