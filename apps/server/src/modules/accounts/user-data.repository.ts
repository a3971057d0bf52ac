import { eq, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  analyticsEvents,
  bots,
  calls,
  emailTokens,
  mailOutbox,
  refreshTokens,
  supportReports,
  users,
} from '../../db/schema.js';

// Deleting an account deletes its rows in the tables of several modules, in one transaction
// (docs/accounts.md "Delete all data"); these statements are that deletion's, nothing reads here.

/** The analytics events the user produced while signed in. */
export async function deleteUserAnalyticsEvents(tx: Database, userId: string): Promise<void> {
  await tx.delete(analyticsEvents).where(eq(analyticsEvents.userId, userId));
}

export async function deleteUserSupportReports(tx: Database, userId: string): Promise<void> {
  await tx.delete(supportReports).where(eq(supportReports.userId, userId));
}

/** Mail to the user, by user id or by address (mail sent before the account existed). */
export async function deleteUserMail(tx: Database, userId: string, email: string): Promise<void> {
  await tx
    .delete(mailOutbox)
    .where(or(eq(mailOutbox.userId, userId), sql`lower(${mailOutbox.toAddress}) = lower(${email})`));
}

export async function deleteUserEmailTokens(tx: Database, userId: string): Promise<void> {
  await tx.delete(emailTokens).where(eq(emailTokens.userId, userId));
}

export async function deleteUserRefreshTokens(tx: Database, userId: string): Promise<void> {
  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
}

export async function deleteUserCalls(tx: Database, userId: string): Promise<void> {
  await tx.delete(calls).where(eq(calls.userId, userId));
}

export async function deleteUserBots(tx: Database, userId: string): Promise<void> {
  await tx.delete(bots).where(eq(bots.authorId, userId));
}

/** The ids of the characters the user wrote (their pictures go with them). */
export async function listAuthoredBotIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db.select({ id: bots.id }).from(bots).where(eq(bots.authorId, userId));
  return rows.map((row) => row.id);
}

export async function deleteUserRow(tx: Database, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}
