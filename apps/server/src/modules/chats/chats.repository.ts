import {
  and,
  desc,
  eq,
  exists,
  gt,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
  getTableColumns,
} from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { commitMode } from '../../db/commit-mode.js';
import { executePrepared } from '../../db/prepared.js';
import { bots, chats, messageReports, messages, safetyEvents, users } from '../../db/schema.js';
import { estimateTokens } from '../../providers/llm/llm.js';

/** Per-turn tokens beyond the text (the prompt builder's MESSAGE_OVERHEAD_TOKENS). */
const HISTORY_TURN_OVERHEAD = 4;

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

/** `%`, `_` and `\\` taken literally in an ILIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The user's chats, newest activity first, with their characters. `search` keeps the chats
 * whose character name, title or a shown user or character message contains it (any case);
 * `botId` keeps one character's chats.
 */
export async function listChats(
  db: Database,
  userId: string,
  limit: number,
  filter: { search?: string; botId?: string } = {},
) {
  const pattern = filter.search ? `%${likeLiteral(filter.search)}%` : null;
  return db
    .select({ chat: chats, bot: bots })
    .from(chats)
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(
      and(
        eq(chats.userId, userId),
        filter.botId ? eq(chats.botId, filter.botId) : undefined,
        pattern
          ? or(
              ilike(bots.name, pattern),
              ilike(chats.title, pattern),
              exists(
                db
                  .select({ one: sql`1` })
                  .from(messages)
                  .where(
                    and(
                      eq(messages.chatId, chats.id),
                      eq(messages.userId, userId),
                      ne(messages.role, 'system'),
                      eq(messages.selected, true),
                      ilike(messages.text, pattern),
                    ),
                  ),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(limit);
}

/**
 * The newest real message of each chat, for previews: a shown user or character message
 * (pictures included, by their caption) — never a platform notice (role system, kind 9999).
 */
export async function lastMessages(db: Database, chatIds: string[]): Promise<Map<string, MessageWithAlts>> {
  if (chatIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([messages.chatId], { message: messages, altCount })
    .from(messages)
    .where(
      and(
        inArray(messages.chatId, chatIds),
        eq(messages.selected, true),
        ne(messages.role, 'system'),
        ne(messages.kind, 9999),
      ),
    )
    .orderBy(messages.chatId, desc(messages.seq));
  return new Map(rows.map((r) => [r.message.chatId, { ...r.message, altCount: r.altCount }]));
}

/**
 * Deletes the user's chat and its messages (they cascade) in one transaction; answers the
 * media keys its messages held (pictures, originals, voice files) so the caller can remove
 * the files, or null when the chat is not the user's.
 */
export async function deleteChat(
  db: Database,
  chatId: string,
  userId: string,
): Promise<{ mediaKey: string | null; originalKey: string | null; audioKey: string | null }[] | null> {
  return db.transaction(async (tx) => {
    const media = await tx
      .select({ mediaKey: messages.mediaKey, originalKey: messages.originalKey, audioKey: messages.audioKey })
      .from(messages)
      .where(
        and(
          eq(messages.chatId, chatId),
          eq(messages.userId, userId),
          or(
            sql`${messages.mediaKey} is not null`,
            sql`${messages.originalKey} is not null`,
            sql`${messages.audioKey} is not null`,
          ),
        ),
      );
    const deleted = await tx
      .delete(chats)
      .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
      .returning({ id: chats.id });
    return deleted.length > 0 ? media : null;
  });
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
 * The shown messages the prompt is built from, oldest first: the newest up to and including
 * `throughSeq` (null: all), after the memory summary's `afterSeq` — at most `limit`, and no
 * more than cover `budget` tokens by the counts stored with each message (so a chat of ten
 * thousand messages reads what one prompt can hold, like a new one).
 */
export type PromptRow = Pick<MessageRow, 'id' | 'seq' | 'role' | 'text' | 'tokens'>;

export async function promptHistory(
  db: Database,
  chatId: string,
  options: { throughSeq: number | null; afterSeq: number; limit: number; budget?: number },
): Promise<PromptRow[]> {
  const rows = await prepared(db).history.execute({
    chatId,
    afterSeq: options.afterSeq,
    throughSeq: options.throughSeq ?? Number.MAX_SAFE_INTEGER,
    limit: options.limit,
    budget: options.budget ?? 2 ** 31 - 1,
  });
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
 * The text with any lone UTF-16 surrogate replaced by U+FFFD — what the driver's UTF-8 encoding
 * of a parameter does, but inside a JSON parameter an escaped lone surrogate would make
 * PostgreSQL refuse the whole statement.
 */
const wellFormed = (text: string): string =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A message a send writes; a live reply gives its owner and the length of its lease. */
export type NewMessage = Pick<
  NewMessageRow,
  'id' | 'clientId' | 'role' | 'kind' | 'text' | 'state' | 'errorCode' | 'notice' | 'replyTo' | 'spoken' | 'owner'
> & { chatId: string; userId: string; leaseMs?: number };

const messageColumns = Object.entries(getTableColumns(messages));

/** A `messages` row as the driver answers it (`returning *`: column names, driver values) → `MessageRow`. */
function messageFromRaw(raw: Record<string, unknown>): MessageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of messageColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as MessageRow;
}

/**
 * Inserts messages in one statement (their `seq` follows the array) and marks the chat active
 * (and, with `disclosedAt`, disclosed) at the same time; answers the rows in `seq` order.
 * The statement's text never changes (the rows go in as one JSON parameter): nothing is built
 * per send, and the driver reuses its prepared statement — building this insert through the
 * query builder was the largest single cost of a send in the server's profile.
 */
export async function insertMessages(
  db: Database,
  chatId: string,
  rows: NewMessage[],
  chatValues: { disclosedAt?: Date } = {},
  /** Commit without waiting for the disk (`db/commit-mode.ts`). */
  relaxedCommit = false,
): Promise<MessageRow[]> {
  const values = rows.map((row, i) => ({
    i,
    id: row.id ?? null,
    chat_id: row.chatId,
    user_id: row.userId,
    client_id: row.clientId ?? null,
    role: row.role,
    kind: row.kind ?? null,
    text: wellFormed(row.text ?? ''),
    state: row.state ?? null,
    error_code: row.errorCode ?? null,
    notice: row.notice ?? null,
    reply_to: row.replyTo ?? null,
    spoken: row.spoken ?? null,
    tokens: estimateTokens(row.text ?? ''),
    owner: row.owner ?? null,
    lease_ms: row.leaseMs ?? null,
  }));
  // One statement writes the messages and the chat's activity time (which orders the chats
  // list): a data-modifying CTE runs whether or not the insert reads it.
  const result = await executePrepared(
    db,
    'chats_insert_messages',
    sql`
    with ${commitMode(relaxedCommit)}, touched as (
      update chats set updated_at = ${new Date().toISOString()}::timestamptz,
        disclosed_at = coalesce(${chatValues.disclosedAt?.toISOString() ?? null}::timestamptz, disclosed_at)
      where id = ${chatId}::uuid
      returning id)
    insert into messages (id, chat_id, user_id, client_id, role, kind, text, state, error_code, notice, reply_to,
      spoken, tokens, owner, lease_until)
    select coalesce(v.id, gen_random_uuid()), v.chat_id, v.user_id, v.client_id, v.role, coalesce(v.kind, 1), v.text,
      coalesce(v.state, 'done'), v.error_code, v.notice, v.reply_to, coalesce(v.spoken, false), v.tokens, v.owner,
      case when v.lease_ms is null then null else now() + v.lease_ms * interval '1 millisecond' end
    from json_to_recordset(${JSON.stringify(values)}::json) as v(i int, id uuid, chat_id uuid, user_id uuid,
      client_id uuid, role text, kind smallint, text text, state text, error_code text, notice text, reply_to uuid,
      spoken boolean, tokens int, owner text, lease_ms float8), commit_mode
    order by v.i
    returning *`,
  );
  return rowsOf<Record<string, unknown>>(result)
    .map(messageFromRaw)
    .sort((a, b) => a.seq - b.seq);
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
  const context = (history: SQL | null, name: string) =>
    db
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
        history: (history ?? sql`null`) as SQL<PromptRow[] | string | null>,
      })
      .from(chats)
      .innerJoin(bots, eq(bots.id, chats.botId))
      .innerJoin(users, eq(users.id, chats.userId))
      .where(and(eq(chats.id, sql.placeholder('chatId')), eq(chats.userId, sql.placeholder('userId'))))
      .prepare(name);
  return {
    chatContext: context(null, 'chats_context'),
    // The chat and the prompt's history (after the memory, as far as the budget goes, oldest
    // first) in one statement: the history of the chat only when it is the user's.
    chatContextWithHistory: context(historyJson(db), 'chats_context_history'),
    history: historyStatement(db),
  };
}

/**
 * The newest shown messages of a chat with the running total of their tokens, newest first:
 * after `afterSeq`, through the `throughSeq` placeholder, at most the `limit` placeholder. A
 * row is kept while what came before it still fits the `budget` placeholder (`fitsBudget`; so
 * the oldest kept row may overflow it: the prompt builder cuts).
 */
function newestHistory(db: Database, chatId: SQLWrapper, afterSeq: SQLWrapper) {
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      text: messages.text,
      tokens: messages.tokens,
      running: sql<number>`sum(${messages.tokens} + ${HISTORY_TURN_OVERHEAD}) over (order by ${messages.seq} desc)`
        .mapWith(Number)
        .as('running'),
    })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        eq(messages.selected, true),
        gt(messages.seq, afterSeq),
        lte(messages.seq, sql.placeholder('throughSeq')),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(sql.placeholder('limit'))
    .as('h');
}

const fitsBudget = (h: ReturnType<typeof newestHistory>) =>
  sql`${h.running} - ${h.tokens} - ${HISTORY_TURN_OVERHEAD} < ${sql.placeholder('budget')}`;

/** The prompt's history of a chat after `afterSeq`, newest first. */
function historyStatement(db: Database) {
  const h = newestHistory(db, sql.placeholder('chatId'), sql.placeholder('afterSeq'));
  return db
    .select({ id: h.id, seq: h.seq, role: h.role, text: h.text, tokens: h.tokens })
    .from(h)
    .where(fitsBudget(h))
    .orderBy(desc(h.seq))
    .prepare('chats_prompt_history');
}

/**
 * The same history of the chat of the enclosing query after its memory, as a JSON array,
 * oldest first: the chat and its history are then read in one statement.
 */
function historyJson(db: Database): SQL<PromptRow[] | string | null> {
  const h = newestHistory(db, chats.id, chats.memoryThroughSeq);
  return sql`(select coalesce(json_agg(json_build_object('id', ${h.id}, 'seq', ${h.seq}, 'role', ${h.role}, 'text', ${h.text}, 'tokens', ${h.tokens}) order by ${h.seq}), '[]'::json) from ${h} where ${fitsBudget(h)})`;
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

/**
 * The user's chat with its character and the user's name, in one query; null if not theirs.
 * With `history`, the same statement reads the prompt's history too (see `promptHistory`).
 */
export async function findChatContext(
  db: Database,
  chatId: string,
  userId: string,
  history?: { limit: number; budget?: number },
) {
  const statements = prepared(db);
  const [row] = history
    ? await statements.chatContextWithHistory.execute({
        chatId,
        userId,
        throughSeq: Number.MAX_SAFE_INTEGER,
        limit: history.limit,
        budget: history.budget ?? 2 ** 31 - 1,
      })
    : await statements.chatContext.execute({ chatId, userId });
  if (!row) return null;
  return {
    chat: row.chat,
    bot: row.bot,
    userName: row.userName || row.username || 'User',
    history: row.history ? parseHistory(row.history) : null,
  };
}

/** The history as JSON rows (a string from drivers that leave JSON unparsed). */
function parseHistory(value: PromptRow[] | string): PromptRow[] {
  const rows = typeof value === 'string' ? (JSON.parse(value) as PromptRow[]) : value;
  return rows.map((row) => ({ ...row, seq: Number(row.seq), tokens: Number(row.tokens) }));
}

/**
 * Adds a new alternative answering `replyTo` (selected; the others are hidden) in the
 * streaming state, or — for a failed reply — resets that reply in place.
 */
export async function insertAlternative(
  db: Database,
  target: MessageRow,
  live: { owner: string; leaseMs: number },
): Promise<MessageRow> {
  return db.transaction(async (tx) => {
    if (target.state === 'failed') {
      const [row] = await tx
        .update(messages)
        .set({
          text: '',
          tokens: 0,
          state: 'streaming',
          errorCode: null,
          updatedAt: new Date(),
          ...liveReplyValues(live.owner, live.leaseMs),
        })
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
        ...liveReplyValues(live.owner, live.leaseMs),
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

/** One reply's save in a batch (`saveReplies`): a final one ends the live reply. */
export interface ReplySave {
  messageId: string;
  text: string;
  /** The final state (with its error code); absent for a save while it streams. */
  state?: Exclude<MessageRow['state'], 'streaming'>;
  errorCode?: string | null;
  /** A save while streaming renews the lease for this long. */
  leaseMs?: number;
  updatedAt: Date;
}

/**
 * Writes replies' saves — many at once, in ONE statement (the group commit of
 * `reply-saves.ts`) — one row per reply, passed as one JSON parameter (the same on PostgreSQL
 * and PGlite): the text and its token count; a final save also the state and error code and
 * ends the live reply (no owner, no lease); a save while streaming renews the lease. Nothing is
 * read back: the caller holds the rest of the row. A reply named twice keeps its last save.
 */
export async function saveReplies(db: Database, saves: ReplySave[], relaxedCommit = false): Promise<void> {
  const byId = new Map<string, ReplySave>();
  for (const save of saves) byId.set(save.messageId, save);
  const rows = [...byId.values()].map((save) => ({
    id: save.messageId,
    text: wellFormed(save.text),
    tokens: estimateTokens(save.text),
    updated_at: save.updatedAt.toISOString(),
    final: save.state !== undefined,
    state: save.state ?? null,
    error_code: save.errorCode ?? null,
    lease_ms: save.state === undefined ? (save.leaseMs ?? null) : null,
  }));
  await executePrepared(
    db,
    'chats_save_replies',
    sql`
    with ${commitMode(relaxedCommit)}
    update messages as m set
      text = v.text,
      tokens = v.tokens,
      updated_at = v.updated_at,
      state = case when v.final then v.state else m.state end,
      error_code = case when v.final then v.error_code else m.error_code end,
      owner = case when v.final then null else m.owner end,
      lease_until = case
        when v.final then null
        when v.lease_ms is not null then now() + v.lease_ms * interval '1 millisecond'
        else m.lease_until end
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as v(id uuid, text text, tokens int, updated_at timestamptz, final boolean, state text, error_code text, lease_ms float8),
      commit_mode
    where m.id = v.id`,
  );
}

// ---------------------------------------------------------------------------------------
// Live replies across replicas (live-replies.ts): owner and lease
// ---------------------------------------------------------------------------------------

/** `now() + ms` on the database's clock (replicas' clocks may differ). */
const leaseFromNow = (leaseMs: number) => sql`now() + ${leaseMs} * interval '1 millisecond'`;

/** The owner and lease a new live reply is written with. */
export const liveReplyValues = (owner: string, leaseMs: number) => ({
  owner,
  leaseUntil: leaseFromNow(leaseMs) as unknown as Date,
});

/** Extends the leases of every live reply of this replica (one statement, however many). */
export async function renewLeases(db: Database, owner: string, leaseMs: number): Promise<void> {
  await db
    .update(messages)
    .set({ leaseUntil: leaseFromNow(leaseMs) as unknown as Date })
    .where(and(eq(messages.owner, owner), eq(messages.state, 'streaming')));
}

/** The chat's live reply, if any, and whether its owner's lease still runs. */
export async function findLiveReply(
  db: Database,
  chatId: string,
): Promise<{ id: string; owner: string | null; alive: boolean } | null> {
  const [row] = await db
    .select({
      id: messages.id,
      owner: messages.owner,
      alive: sql<boolean>`coalesce(${messages.leaseUntil} > now(), false)`,
    })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.state, 'streaming')));
  return row ?? null;
}

/** Whether the reply's owner's lease still runs (false once it ended or expired). */
export function leaseAlive(db: Database, messageId: string): Promise<boolean> {
  return db
    .select({ alive: sql<boolean>`${messages.leaseUntil} > now()` })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.state, 'streaming')))
    .then((rows) => rows[0]?.alive === true);
}

/**
 * Ends live replies whose owner's lease ran out (the owner died): `failed` with `interrupted`,
 * their text as last saved. Limited to one chat or one reply when given; answers their ids.
 */
export async function failExpiredReplies(
  db: Database,
  scope: { chatId?: string; messageId?: string } = {},
  state: 'failed' | 'stopped' = 'failed',
): Promise<{ id: string; chatId: string }[]> {
  return db
    .update(messages)
    .set({
      state,
      errorCode: state === 'failed' ? 'interrupted' : null,
      owner: null,
      leaseUntil: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(messages.state, 'streaming'),
        // No lease at all: written by no live replica (a version before leases).
        or(isNull(messages.leaseUntil), lt(messages.leaseUntil, sql`now()`)),
        scope.chatId ? eq(messages.chatId, scope.chatId) : undefined,
        scope.messageId ? eq(messages.id, scope.messageId) : undefined,
      ),
    )
    .returning({ id: messages.id, chatId: messages.chatId });
}

/**
 * Cuts a finished spoken reply to the words the user heard (a call's barge-in): `stopped`,
 * never a text message, never a reply still streaming.
 */
export async function cutSpokenReply(
  db: Database,
  where: { userId: string; chatId: string; messageId: string },
  text: string,
): Promise<boolean> {
  const which = and(
    eq(messages.id, where.messageId),
    eq(messages.chatId, where.chatId),
    eq(messages.userId, where.userId),
    eq(messages.role, 'bot'),
    eq(messages.spoken, true),
    inArray(messages.state, ['done', 'stopped']),
  );
  // Nothing of it was heard: it was never said, so it is no part of the conversation.
  if (!text.trim()) return (await db.delete(messages).where(which).returning({ id: messages.id })).length > 0;
  const rows = await db
    .update(messages)
    .set({ text, state: 'stopped', errorCode: null, tokens: estimateTokens(text), updatedAt: new Date() })
    .where(which)
    .returning({ id: messages.id });
  return rows.length > 0;
}

/** Whether the chat has a live reply (a swipe waits for it). */
export async function hasLiveReply(db: Database, chatId: string): Promise<boolean> {
  return (await findLiveReply(db, chatId)) !== null;
}

/** The unique index that allows one live reply per chat (a second is a conflict, 409). */
export const LIVE_REPLY_INDEX = 'messages_live_idx';

export async function updateChat(
  db: Database,
  chatId: string,
  values: Partial<
    Pick<ChatRow, 'personaId' | 'modelId' | 'title' | 'memory' | 'memoryUpdatedAt' | 'memoryThroughSeq' | 'disclosedAt'>
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
