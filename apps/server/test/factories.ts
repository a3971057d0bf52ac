import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.js';
import { bots, users } from '../src/db/schema.js';

export type UserRow = typeof users.$inferSelect;

/**
 * Inserts a user directly (no sign-up flow) and signs an access token for it. The password
 * hash is not a real hash: such users log in only through the token.
 */
export async function createUser(
  app: FastifyInstance,
  db: Database,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<{ user: UserRow; token: string; auth: { authorization: string } }> {
  const suffix = randomUUID().slice(0, 8);
  const [user] = await db
    .insert(users)
    .values({
      username: `user_${suffix}`,
      email: `user_${suffix}@example.test`,
      passwordHash: '!test-only',
      name: `User ${suffix}`,
      ...overrides,
    })
    .returning();
  const token = await app.tokens.signAccess({ sub: user!.id, role: user!.role });
  return { user: user!, token, auth: { authorization: `Bearer ${token}` } };
}

/** Inserts a character directly (no moderation, no pictures), newest unless `createdAt` says otherwise. */
export async function createBot(
  db: Database,
  overrides: Partial<typeof bots.$inferInsert> = {},
): Promise<typeof bots.$inferSelect> {
  const suffix = randomUUID().slice(0, 8);
  const [bot] = await db
    .insert(bots)
    .values({
      slug: `bot-${suffix}`,
      name: `Bot ${suffix}`,
      age: 25,
      description: 'A test character.',
      greeting: 'Hello!',
      tags: ['anime'],
      visibility: 'public',
      reviewState: 'approved',
      ...overrides,
    })
    .returning();
  return bot!;
}
