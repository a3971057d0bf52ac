import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { bots, users } from '../src/db/schema.js';
import { memoryValues } from '../src/modules/memories/memories.service.js';
import { createTestDatabase } from './helpers.js';
import { PLAIN_USER_MEMORY } from './plain-memory.js';

/**
 * A test database opened a second time with every statement it runs noted in `statements` (the
 * memories' "a prompt is one statement" checks), holding one user and one character named
 * `name`: the pair whose memories the test writes.
 */
export async function countedMemoryPair(
  name: string,
  statements: string[],
): Promise<{ db: DatabaseHandle['db']; userId: string; botId: string }> {
  const database = await createTestDatabase();
  const note = (query: string) => void statements.push(query);
  const { db } =
    database.raw.kind === 'postgres'
      ? await openDatabase({ url: database.raw.url, poolSize: 2, logQuery: note })
      : await openDatabase({ pglite: database.raw.client, logQuery: note });
  const [user] = await db
    .insert(users)
    .values({ username: name, email: `${name}@example.test`, passwordHash: '!', name: 'Alex' })
    .returning();
  const [bot] = await db
    .insert(bots)
    .values({ slug: name, name: 'Mia', age: 25, description: '', greeting: '' })
    .returning();
  return { db, userId: user!.id, botId: bot!.id };
}

/**
 * The values of a plain memory about the user for the pair (importance 3, not pinned, written
 * by the model, no source messages), with `embedding` when given.
 */
export const userMemoryValues = (userId: string, botId: string, text: string, embedding?: number[]) =>
  memoryValues(userId, botId, {
    ...PLAIN_USER_MEMORY,
    sourceMessageIds: [],
    text,
    ...(embedding ? { embedding } : {}),
  });
