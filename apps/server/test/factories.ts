import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Chat } from '@reverie/shared';
import type { Database } from '../src/db/client.js';
import { bots, chats, messages, refreshTokens, subscriptions, users } from '../src/db/schema.js';
import { hashPassword } from '../src/modules/accounts/accounts.service.js';

export type UserRow = typeof users.$inferSelect;

/**
 * Inserts a user directly (no sign-up flow) with a live session (a refresh-token family) and
 * signs an access token for it. The password hash is not a real hash: such users log in only
 * through the token.
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
  const token = await createSession(app, db, user!);
  return { user: user!, token, auth: { authorization: `Bearer ${token}` } };
}

/** Starts another session of the user (as a log-in does) and answers its access token. */
export async function createSession(
  app: FastifyInstance,
  db: Database,
  user: { id: string; role: 'user' | 'admin' },
): Promise<string> {
  const sid = randomUUID();
  await db.insert(refreshTokens).values({
    userId: user.id,
    familyId: sid,
    tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
    expiresAt: new Date(Date.now() + 30 * 24 * 3600_000),
  });
  return app.tokens.signAccess({ sub: user.id, role: user.role, sid });
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

/**
 * Opens a chat the way the app does (`POST /api/chat/create`, greeting included) with a new
 * character made of `overrides`; fails the test unless it answers 201.
 */
export async function openChatWithNewBot(
  app: FastifyInstance,
  db: Database,
  auth: Record<string, string>,
  overrides: Partial<typeof bots.$inferInsert> = {},
): Promise<{ bot: typeof bots.$inferSelect; chat: Chat }> {
  const bot = await createBot(db, overrides);
  const res = await app.inject({ method: 'POST', url: '/api/chat/create', headers: auth, payload: { botID: bot.id } });
  if (res.statusCode !== 201) throw new Error(`chat/create answered ${res.statusCode}: ${res.body}`);
  return { bot, chat: res.json<Chat>() };
}

/** Inserts a chat of the user with the character directly (no chats service). */
export async function createChat(
  db: Database,
  values: { userId: string; botId: string } & Partial<typeof chats.$inferInsert>,
): Promise<typeof chats.$inferSelect> {
  const [chat] = await db.insert(chats).values(values).returning();
  return chat!;
}

/** Inserts a message directly; a user text message unless `overrides` say otherwise. */
export async function createMessage(
  db: Database,
  chat: { id: string; userId: string },
  overrides: Partial<typeof messages.$inferInsert> = {},
): Promise<typeof messages.$inferSelect> {
  const [message] = await db
    .insert(messages)
    .values({ chatId: chat.id, userId: chat.userId, role: 'user', kind: 1, text: 'Hello', ...overrides })
    .returning();
  return message!;
}

/** Gives the user premium directly: a sandbox subscription whose period ends in 30 days. */
export async function createPremium(db: Database, userId: string): Promise<void> {
  const now = new Date();
  await db.insert(subscriptions).values({
    userId,
    provider: 'sandbox',
    providerSubscriptionId: `test-${randomUUID()}`,
    plan: 'monthly',
    status: 'active',
    currentPeriodEnd: new Date(now.getTime() + 30 * 24 * 3600_000),
    stateAt: now,
  });
}

/** The password `deleteAccount` gives a factory user (theirs is no real hash). */
export const TEST_PASSWORD = 'test-password-27';
let testPasswordHash: Promise<string> | null = null;

/**
 * "Delete all data" as the user does it (issue 27: only with the account's password): the
 * factory user gets `TEST_PASSWORD` (hashed once per test file), then `DELETE /api/profile`.
 */
export async function deleteAccount(
  app: FastifyInstance,
  db: Database,
  userId: string,
  auth: { authorization: string },
) {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  await db
    .update(users)
    .set({ passwordHash: await testPasswordHash })
    .where(eq(users.id, userId));
  return app.inject({ method: 'DELETE', url: '/api/profile', headers: auth, payload: { password: TEST_PASSWORD } });
}
