import { and, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { bots, chats, messageReports, messages, safetyEvents, users } from '../../db/schema.js';

type BotRow = typeof bots.$inferSelect;

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
/** A message with how many alternatives its reply group has (1 for messages without one). */
export type MessageWithAlts = MessageRow & { altCount: number };

/** How many replies answer the same user message (the swipe's "i/n"). */
const altCount = sql<number>`case when "messages"."reply_to" is null then 1 else (
  select count(*)::int from "messages" as m2
  where m2.reply_to = "messages"."reply_to" and m2.chat_id = "messages"."chat_id"
) end`.mapWith(Number);

/** The chat when it belongs to the user; anyone else's (or an unknown id) answers null. */
export async function findOwnedChat(db: Database, chatId: string, userId: string): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)));
  return row ?? null;
}

export async function findChatById(db: Database, chatId: string): Promise<ChatRow | null> {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId));
  return row ?? null;
}

/** The user's most recently active chat with a character. */
export async function findLatestChatWithBot(db: Database, userId: string, botId: string): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.botId, botId)))
    .orderBy(desc(chats.updatedAt))
    .limit(1);
  return row ?? null;
}

/** Creates a chat and its first messages (the greeting, the AI disclosure) in one transaction. */
export async function insertChat(
  db: Database,
  values: { userId: string; botId: string; disclosedAt: Date },
  firstMessages: (chatId: string) => NewMessageRow[],
): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    const [chat] = await tx.insert(chats).values(values).returning();
    const rows = firstMessages(chat!.id);
    if (rows.length > 0) await tx.insert(messages).values(rows);
    return chat!;
  });
}

/** The user's chats, newest activity first, with their characters. */
export async function listChats(db: Database, userId: string, limit: number) {
  return db
    .select({ chat: chats, bot: bots })
    .from(chats)
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(eq(chats.userId, userId))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(limit);
}

/** The newest shown message of each chat. */
export async function lastMessages(db: Database, chatIds: string[]): Promise<Map<string, MessageWithAlts>> {
  if (chatIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([messages.chatId], { message: messages, altCount })
    .from(messages)
    .where(and(inArray(messages.chatId, chatIds), eq(messages.selected, true)))
    .orderBy(messages.chatId, desc(messages.seq));
  return new Map(rows.map((r) => [r.message.chatId, { ...r.message, altCount: r.altCount }]));
}

/** One page of the history, newest first: only the shown alternative of each reply. */
export async function historyPage(
  db: Database,
  chatId: string,
  beforeSeq: number | null,
  size: number,
): Promise<MessageWithAlts[]> {
  const rows = await db
    .select({ message: messages, altCount })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        eq(messages.selected, true),
        beforeSeq === null ? undefined : lt(messages.seq, beforeSeq),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(size);
  return rows.map((r) => ({ ...r.message, altCount: r.altCount }));
}

/**
 * The shown messages the prompt is built from, oldest first: the newest `limit` up to and
 * including `throughSeq` (null: all), after the memory summary's `afterSeq`.
 */
export type PromptRow = Pick<MessageRow, 'id' | 'seq' | 'role' | 'text'>;

export async function promptHistory(
  db: Database,
  chatId: string,
  options: { throughSeq: number | null; afterSeq: number; limit: number },
): Promise<PromptRow[]> {
  if (options.throughSeq === null) {
    const latest = await prepared(db).history.execute({
      chatId,
      afterSeq: options.afterSeq,
      limit: options.limit,
    });
    return latest.reverse();
  }
  const rows = await db
    .select({ id: messages.id, seq: messages.seq, role: messages.role, text: messages.text })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        eq(messages.selected, true),
        gt(messages.seq, options.afterSeq),
        options.throughSeq === null ? undefined : lte(messages.seq, options.throughSeq),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(options.limit);
  return rows.reverse();
}

export async function findMessage(db: Database, chatId: string, messageId: string): Promise<MessageWithAlts | null> {
  const [row] = await db
    .select({ message: messages, altCount })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.chatId, chatId)));
  return row ? { ...row.message, altCount: row.altCount } : null;
}

export async function findByClientId(db: Database, chatId: string, clientId: string): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.clientId, clientId)));
  return row ?? null;
}

/** The reply the history shows for a user message (the selected alternative), if any. */
export async function findSelectedReply(db: Database, chatId: string, replyTo: string): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.replyTo, replyTo), eq(messages.selected, true)))
    .orderBy(desc(messages.seq))
    .limit(1);
  return row ?? null;
}

/**
 * Inserts messages in one statement (their `seq` follows the array) and marks the chat active
 * (and, with `disclosedAt`, disclosed) at the same time; answers the rows in `seq` order.
 */
export async function insertMessages(
  db: Database,
  chatId: string,
  rows: NewMessageRow[],
  chatValues: { disclosedAt?: Date } = {},
): Promise<MessageRow[]> {
  // The chat's activity time only orders the chats list: a failure to write it must not fail
  // a send whose messages are saved (it is written again by the next message).
  const touched = db
    .update(chats)
    .set({ updatedAt: new Date(), ...chatValues })
    .where(eq(chats.id, chatId))
    .then(
      () => undefined,
      () => undefined,
    );
  const [inserted] = await Promise.all([db.insert(messages).values(rows).returning(), touched]);
  return inserted.sort((a, b) => a.seq - b.seq);
}

/** What a reply needs of its character (the prompt's card fields). */
export type PromptBot = Pick<
  BotRow,
  | 'id'
  | 'name'
  | 'description'
  | 'personality'
  | 'personalityText'
  | 'scenario'
  | 'exampleMessages'
  | 'systemPrompt'
  | 'postHistoryInstructions'
  | 'characterBook'
>;

/**
 * The statements of every reply, prepared once per database handle: drizzle then skips
 * building their SQL on each call (its query building was the server's largest CPU cost
 * under load).
 */
function prepareStatements(db: Database) {
  return {
    chatContext: db
      .select({
        chat: chats,
        bot: {
          id: bots.id,
          name: bots.name,
          description: bots.description,
          personality: bots.personality,
          personalityText: bots.personalityText,
          scenario: bots.scenario,
          exampleMessages: bots.exampleMessages,
          systemPrompt: bots.systemPrompt,
          postHistoryInstructions: bots.postHistoryInstructions,
          characterBook: bots.characterBook,
        },
        userName: users.name,
        username: users.username,
      })
      .from(chats)
      .innerJoin(bots, eq(bots.id, chats.botId))
      .innerJoin(users, eq(users.id, chats.userId))
      .where(and(eq(chats.id, sql.placeholder('chatId')), eq(chats.userId, sql.placeholder('userId'))))
      .prepare('chats_context'),
    history: db
      .select({ id: messages.id, seq: messages.seq, role: messages.role, text: messages.text })
      .from(messages)
      .where(
        and(
          eq(messages.chatId, sql.placeholder('chatId')),
          eq(messages.selected, true),
          gt(messages.seq, sql.placeholder('afterSeq')),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(sql.placeholder('limit'))
      .prepare('chats_prompt_history'),
  };
}

const preparedByDb = new WeakMap<Database, ReturnType<typeof prepareStatements>>();

function prepared(db: Database): ReturnType<typeof prepareStatements> {
  let statements = preparedByDb.get(db);
  if (!statements) {
    statements = prepareStatements(db);
    preparedByDb.set(db, statements);
  }
  return statements;
}

/** The user's chat with its character and the user's name, in one query; null if not theirs. */
export async function findChatContext(db: Database, chatId: string, userId: string) {
  const [row] = await prepared(db).chatContext.execute({ chatId, userId });
  return row ? { chat: row.chat, bot: row.bot, userName: row.userName || row.username || 'User' } : null;
}

/**
 * Adds a new alternative answering `replyTo` (selected; the others are hidden) in the
 * streaming state, or — for a failed reply — resets that reply in place.
 */
export async function insertAlternative(db: Database, target: MessageRow): Promise<MessageRow> {
  return db.transaction(async (tx) => {
    if (target.state === 'failed') {
      const [row] = await tx
        .update(messages)
        .set({ text: '', state: 'streaming', errorCode: null, updatedAt: new Date() })
        .where(eq(messages.id, target.id))
        .returning();
      return row!;
    }
    const [last] = await tx
      .select({ max: sql<number>`max(${messages.altIndex})`.mapWith(Number) })
      .from(messages)
      .where(and(eq(messages.chatId, target.chatId), eq(messages.replyTo, target.replyTo!)));
    await tx
      .update(messages)
      .set({ selected: false })
      .where(and(eq(messages.chatId, target.chatId), eq(messages.replyTo, target.replyTo!)));
    const [row] = await tx
      .insert(messages)
      .values({
        chatId: target.chatId,
        userId: target.userId,
        role: 'bot',
        kind: 1,
        text: '',
        state: 'streaming',
        replyTo: target.replyTo,
        altIndex: (last?.max ?? 0) + 1,
        selected: true,
      })
      .returning();
    await tx.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, target.chatId));
    return row!;
  });
}

/** Shows the alternative `index` of a reply group; null when there is no such alternative. */
export async function selectAlternative(
  db: Database,
  chatId: string,
  replyTo: string,
  index: number,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [chosen] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.chatId, chatId), eq(messages.replyTo, replyTo), eq(messages.altIndex, index)));
    if (!chosen) return null;
    await tx
      .update(messages)
      .set({ selected: sql`${messages.id} = ${chosen.id}` })
      .where(and(eq(messages.chatId, chatId), eq(messages.replyTo, replyTo)));
    return chosen.id;
  });
}

/**
 * Writes a reply's text (while it streams) or its final text and state. Nothing is read
 * back: the caller holds the rest of the row.
 */
export async function saveReply(
  db: Database,
  messageId: string,
  values: { text: string; state?: MessageRow['state']; errorCode?: string | null },
): Promise<Date> {
  const updatedAt = new Date();
  await db
    .update(messages)
    .set({ ...values, updatedAt })
    .where(eq(messages.id, messageId));
  return updatedAt;
}

/** Replies left `streaming` by a process that stopped (crash, restart) before `before`. */
export async function failStaleStreams(db: Database, before: Date): Promise<number> {
  const rows = await db
    .update(messages)
    .set({ state: 'failed', errorCode: 'interrupted', updatedAt: new Date() })
    .where(and(eq(messages.state, 'streaming'), lt(messages.updatedAt, before)))
    .returning({ id: messages.id });
  return rows.length;
}

export async function updateChat(
  db: Database,
  chatId: string,
  values: Partial<
    Pick<ChatRow, 'personaId' | 'modelId' | 'memory' | 'memoryUpdatedAt' | 'memoryThroughSeq' | 'disclosedAt'>
  >,
): Promise<ChatRow> {
  const [row] = await db.update(chats).set(values).where(eq(chats.id, chatId)).returning();
  return row!;
}

export async function findUserName(db: Database, userId: string): Promise<string> {
  const [row] = await db.select({ name: users.name, username: users.username }).from(users).where(eq(users.id, userId));
  return row?.name || row?.username || 'User';
}

/** The user's own persona (a bot of kind persona they wrote). */
export async function findOwnPersona(db: Database, personaId: string, userId: string) {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, personaId), eq(bots.authorId, userId), eq(bots.kind, 'persona')));
  return row ?? null;
}

export async function recordSafetyEvent(
  db: Database,
  values: { userId: string | null; kind: 'crisis' | 'minors_input' | 'minors_output'; locale: string },
): Promise<void> {
  await db.insert(safetyEvents).values(values);
}

/** Reports a message once per user; a second report of the same message changes nothing. */
export async function insertReport(
  db: Database,
  values: { messageId: string; userId: string; reason: string; comment: string },
): Promise<void> {
  await db.insert(messageReports).values(values).onConflictDoNothing();
}
