import { and, asc, count, desc, eq, gt, lt, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { updateAny } from '../../db/rows.js';
import { bots, chats, messageReports, messages, supportReports, users } from '../../db/schema.js';

const reporters = alias(users, 'reporters');

const reportColumns = {
  id: messageReports.id,
  reason: messageReports.reason,
  comment: messageReports.comment,
  status: messageReports.status,
  resolution: messageReports.resolution,
  resolvedAt: messageReports.resolvedAt,
  createdAt: messageReports.createdAt,
  reporterId: reporters.id,
  reporterEmail: reporters.email,
  reporterName: reporters.name,
  botId: bots.id,
  botName: bots.name,
  botSlug: bots.slug,
  chatId: chats.id,
  messageId: messages.id,
  messageRole: messages.role,
  messageText: messages.text,
  messageCreatedAt: messages.createdAt,
  messageMediaKey: messages.mediaKey,
};

export interface MessageReportRow {
  id: number;
  reason: string;
  comment: string;
  status: 'open' | 'resolved';
  resolution: string | null;
  resolvedAt: Date | null;
  createdAt: Date;
  reporterId: string;
  reporterEmail: string;
  reporterName: string;
  botId: string;
  botName: string;
  botSlug: string;
  chatId: string;
  messageId: string;
  messageRole: string;
  messageText: string;
  messageCreatedAt: Date;
  messageMediaKey: string | null;
}

function reportQuery(db: Database) {
  return db
    .select(reportColumns)
    .from(messageReports)
    .innerJoin(messages, eq(messages.id, messageReports.messageId))
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .innerJoin(bots, eq(bots.id, chats.botId))
    .innerJoin(reporters, eq(reporters.id, messageReports.userId));
}

export async function listMessageReports(
  db: Database,
  status: 'open' | 'resolved',
  limit: number,
): Promise<MessageReportRow[]> {
  return reportQuery(db)
    .where(eq(messageReports.status, status))
    .orderBy(status === 'open' ? asc(messageReports.createdAt) : desc(messageReports.resolvedAt))
    .limit(limit);
}

export async function findMessageReport(db: Database, id: number): Promise<MessageReportRow | null> {
  const [row] = await reportQuery(db).where(eq(messageReports.id, id));
  return row ?? null;
}

export interface ContextRow {
  id: string;
  role: string;
  text: string;
  createdAt: Date;
  mediaKey: string | null;
}

const contextColumns = {
  id: messages.id,
  role: messages.role,
  text: messages.text,
  createdAt: messages.createdAt,
  mediaKey: messages.mediaKey,
};

/** Up to `limit` messages next to one in its chat, in `(createdAt, id)` order, nearest first. */
function neighbourMessages(
  db: Database,
  message: { chatId: string; id: string; createdAt: Date },
  direction: 'before' | 'after',
  limit: number,
) {
  const [beyond, order] = direction === 'before' ? [lt, desc] : [gt, asc];
  return db
    .select(contextColumns)
    .from(messages)
    .where(
      and(
        eq(messages.chatId, message.chatId),
        or(
          beyond(messages.createdAt, message.createdAt),
          and(eq(messages.createdAt, message.createdAt), beyond(messages.id, message.id)),
        ),
      ),
    )
    .orderBy(order(messages.createdAt), order(messages.id))
    .limit(limit);
}

/** Up to `around` messages before and after one, in its chat, in order (it included). */
export async function messageContext(
  db: Database,
  message: { chatId: string; id: string; createdAt: Date },
  around: number,
): Promise<ContextRow[]> {
  const before = await neighbourMessages(db, message, 'before', around);
  const after = await neighbourMessages(db, message, 'after', around);
  const [self] = await db.select(contextColumns).from(messages).where(eq(messages.id, message.id));
  return [...before.reverse(), ...(self ? [self] : []), ...after];
}

export async function resolveMessageReport(
  db: Database,
  id: number,
  values: { resolution: string | null; resolvedBy: string },
): Promise<boolean> {
  return updateAny(db, messageReports, eq(messageReports.id, id), {
    status: 'resolved',
    resolution: values.resolution,
    resolvedBy: values.resolvedBy,
    resolvedAt: new Date(),
  });
}

export async function countOpenReports(db: Database): Promise<number> {
  const [m] = await db.select({ n: count() }).from(messageReports).where(eq(messageReports.status, 'open'));
  const [s] = await db.select({ n: count() }).from(supportReports).where(eq(supportReports.status, 'open'));
  return Number(m?.n ?? 0) + Number(s?.n ?? 0);
}

const supportColumns = {
  id: supportReports.id,
  email: supportReports.email,
  subject: supportReports.subject,
  text: supportReports.text,
  status: supportReports.status,
  answer: supportReports.answer,
  answeredAt: supportReports.answeredAt,
  closedAt: supportReports.closedAt,
  createdAt: supportReports.createdAt,
  userId: users.id,
  userEmail: users.email,
  userEmailConfirmed: users.isEmailConfirmed,
  userName: users.name,
  userLocale: users.locale,
};

export interface SupportReportRow {
  id: string;
  email: string | null;
  subject: string;
  text: string;
  status: 'open' | 'closed';
  answer: string | null;
  answeredAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  userId: string | null;
  userEmail: string | null;
  userEmailConfirmed: boolean | null;
  userName: string | null;
  userLocale: string | null;
}

export async function listSupportReports(
  db: Database,
  status: 'open' | 'closed',
  limit: number,
): Promise<SupportReportRow[]> {
  return db
    .select(supportColumns)
    .from(supportReports)
    .leftJoin(users, eq(users.id, supportReports.userId))
    .where(eq(supportReports.status, status))
    .orderBy(status === 'open' ? asc(supportReports.createdAt) : desc(supportReports.closedAt))
    .limit(limit);
}

export async function findSupportReport(db: Database, id: string): Promise<SupportReportRow | null> {
  const [row] = await db
    .select(supportColumns)
    .from(supportReports)
    .leftJoin(users, eq(users.id, supportReports.userId))
    .where(eq(supportReports.id, id));
  return row ?? null;
}

/** The report's own row, locked until the transaction ends (one answer at a time). */
export async function lockSupportReport(
  db: Database,
  id: string,
): Promise<Pick<typeof supportReports.$inferSelect, 'status' | 'answer' | 'answeredAt' | 'closedAt'> | null> {
  const [row] = await db
    .select({
      status: supportReports.status,
      answer: supportReports.answer,
      answeredAt: supportReports.answeredAt,
      closedAt: supportReports.closedAt,
    })
    .from(supportReports)
    .where(eq(supportReports.id, id))
    .for('update');
  return row ?? null;
}

export async function updateSupportReport(
  db: Database,
  id: string,
  values: Partial<
    Pick<typeof supportReports.$inferInsert, 'answer' | 'answeredAt' | 'handledBy' | 'status' | 'closedAt'>
  >,
): Promise<void> {
  await db.update(supportReports).set(values).where(eq(supportReports.id, id));
}
