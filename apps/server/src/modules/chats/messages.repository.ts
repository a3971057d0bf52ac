/**
 * The `messages` table: the history, a send's insert (one prepared statement), alternatives,
 * the replies' saves (the group commit of `reply-saves.ts`) and a call's cut reply. The owner
 * and lease of a live reply are `live-replies.repository.ts`'s.
 */
import { and, desc, eq, getTableColumns, inArray, lt, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { commitMode } from '../../db/commit-mode.js';
import { executePrepared } from '../../db/prepared.js';
import { findRow, updateAny } from '../../db/rows.js';
import { chatSegments, chats, messageOverrides, messages } from '../../db/schema.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import { liveReplyValues } from './live-replies.repository.js';

export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
/** A message with how many alternatives its reply group has (1 for messages without one). */
export type MessageWithAlts = MessageRow & { altCount: number };

/** How many replies answer the same user message (the swipe's "i/n"). */
const altCount = sql<number>`case when "messages"."reply_to" is null then 1 else (
  select count(*)::int from "messages" as m2
  where m2.reply_to = "messages"."reply_to" and m2.chat_id = "messages"."chat_id"
) end`.mapWith(Number);

/**
 * The newest real message of each chat, for previews: a shown user or character message
 * (pictures included, by their caption) — never a platform notice (role system, kind 9999).
 * Each chat's is read backwards through `messages_chat_idx` (a lateral `limit 1`), and the
 * alternatives counted for those rows only: a `distinct on` over the chats' messages read every
 * message of every chat and counted each one's alternatives (3.8 s for three chats of 3 000
 * messages; docs/chat.md "Managing chats").
 */
export function lastMessagesQuery(db: Database, chatIds: string[]) {
  const ids = sql.join(
    chatIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const newest = sql`(select l.id from unnest(array[${ids}]::uuid[]) as c(id)
    cross join lateral (
      select m.id from messages m
      where m.chat_id = c.id and m.selected and m.role <> 'system' and m.kind <> 9999
      order by m.seq desc limit 1
    ) as l)`;
  return db.select({ message: messages, altCount }).from(messages).where(inArray(messages.id, newest));
}

export async function lastMessages(db: Database, chatIds: string[]): Promise<Map<string, MessageWithAlts>> {
  if (chatIds.length === 0) return new Map();
  const rows = await lastMessagesQuery(db, chatIds);
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

export async function findMessage(db: Database, chatId: string, messageId: string): Promise<MessageWithAlts | null> {
  const [row] = await db
    .select({ message: messages, altCount })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.chatId, chatId)));
  return row ? { ...row.message, altCount: row.altCount } : null;
}

export async function findByClientId(db: Database, chatId: string, clientId: string): Promise<MessageRow | null> {
  return findRow(db, messages, and(eq(messages.chatId, chatId), eq(messages.clientId, clientId)));
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
  | 'id'
  | 'clientId'
  | 'role'
  | 'kind'
  | 'text'
  | 'state'
  | 'errorCode'
  | 'notice'
  | 'replyTo'
  | 'spoken'
  | 'owner'
  | 'proactiveSlot'
  | 'speaker'
  | 'authorId'
  | 'privateTo'
> & { chatId: string; userId: string; leaseMs?: number };

const messageColumns = Object.entries(getTableColumns(messages));

/** A `messages` row as the driver answers it (`returning *`: column names, driver values) → `MessageRow`. */
export function messageFromRaw(raw: Record<string, unknown>): MessageRow {
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
    proactive_slot: row.proactiveSlot?.toISOString() ?? null,
    speaker: row.speaker ?? null,
    author_id: row.authorId ?? null,
    private_to: row.privateTo ?? null,
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
      spoken, tokens, owner, lease_until, proactive_slot, speaker, author_id, private_to)
    select coalesce(v.id, gen_random_uuid()), v.chat_id, v.user_id, v.client_id, v.role, coalesce(v.kind, 1), v.text,
      coalesce(v.state, 'done'), v.error_code, v.notice, v.reply_to, coalesce(v.spoken, false), v.tokens, v.owner,
      case when v.lease_ms is null then null else now() + v.lease_ms * interval '1 millisecond' end,
      v.proactive_slot, v.speaker, v.author_id, v.private_to
    from json_to_recordset(${JSON.stringify(values)}::json) as v(i int, id uuid, chat_id uuid, user_id uuid,
      client_id uuid, role text, kind smallint, text text, state text, error_code text, notice text, reply_to uuid,
      spoken boolean, tokens int, owner text, lease_ms float8, proactive_slot timestamptz, speaker jsonb,
      author_id uuid, private_to uuid), commit_mode
    order by v.i
    returning *`,
  );
  return rowsOf<Record<string, unknown>>(result)
    .map(messageFromRaw)
    .sort((a, b) => a.seq - b.seq);
}

/**
 * Adds a new alternative answering `replyTo` (selected; the others are hidden) in the
 * streaming state, or — for a failed reply — resets that reply in place.
 */
export async function insertAlternative(
  db: Database,
  target: MessageRow,
  live: { owner: string; leaseMs: number },
  /**
   * The chat the alternative is written in, and whether it has the reply group alone: a reply
   * shared with another chat of its tree (a branch) is never changed — the new alternative is
   * the chat's own row and the others keep their state (the caller hides the shared one).
   */
  into: { chatId: string; alone: boolean } = { chatId: target.chatId, alone: true },
): Promise<MessageRow> {
  const chatId = into.chatId;
  return db.transaction(async (tx) => {
    if (target.state === 'failed' && into.alone) {
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
    const row = await addToReplyGroup(tx, chatId, target, into.alone, {
      text: '',
      state: 'streaming',
      ...liveReplyValues(live.owner, live.leaseMs),
    });
    await tx.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, chatId));
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
  /** A final save: what went into the reply's prompt (`prompt_traces`), kept in the same statement. */
  trace?: { userId: string; chatId: string; trace: Record<string, unknown> };
}

/**
 * Writes replies' saves — many at once, in ONE statement (the group commit of
 * `reply-saves.ts`) — one row per reply, passed as one JSON parameter (the same on PostgreSQL
 * and PGlite): the text and its token count; a final save also the state and error code and
 * ends the live reply (no owner, no lease), and gives a first reply that was live its time, the
 * save's (`created_at`: its row was made with the message it answers; a later alternative's row
 * is its own); a save while streaming renews the lease. Nothing is
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
    trace: save.trace?.trace ?? null,
    trace_user_id: save.trace?.userId ?? null,
    trace_chat_id: save.trace?.chatId ?? null,
  }));
  // A reply's trace is written (or, for a reply generated again into its row, replaced) only
  // when its row was saved: a reply deleted meanwhile leaves no trace and fails no save.
  await executePrepared(
    db,
    'chats_save_replies',
    sql`
    with ${commitMode(relaxedCommit)},
    v as (select * from json_to_recordset(${JSON.stringify(rows)}::json)
      as v(id uuid, text text, tokens int, updated_at timestamptz, final boolean, state text, error_code text,
        lease_ms float8, trace jsonb, trace_user_id uuid, trace_chat_id uuid)),
    saved as (
      update messages as m set
        text = v.text,
        tokens = v.tokens,
        updated_at = v.updated_at,
        -- A reply's time is when it was written: a first reply's row was made with the message it answers.
        created_at = case when v.final and m.state = 'streaming' and m.alt_index = 0 then v.updated_at
          else m.created_at end,
        state = case when v.final then v.state else m.state end,
        error_code = case when v.final then v.error_code else m.error_code end,
        owner = case when v.final then null else m.owner end,
        lease_until = case
          when v.final then null
          when v.lease_ms is not null then now() + v.lease_ms * interval '1 millisecond'
          else m.lease_until end
      from v, commit_mode
      where m.id = v.id
      returning m.id),
    traced as (
      insert into prompt_traces (message_id, user_id, chat_id, trace)
      select v.id, v.trace_user_id, v.trace_chat_id, v.trace from v join saved s on s.id = v.id
      where v.trace is not null
      on conflict (message_id) do update set trace = excluded.trace, created_at = now())
    select count(*) from saved`,
  );
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
  return updateAny(db, messages, which, {
    text,
    state: 'stopped',
    errorCode: null,
    tokens: estimateTokens(text),
    updatedAt: new Date(),
  });
}

/** Edits a message's own row (it is shared with no other chat): the text, marked edited. */
export async function editMessageText(db: Database, messageId: string, text: string, at: Date): Promise<void> {
  await db
    .update(messages)
    .set({ text: wellFormed(text), tokens: estimateTokens(text), editedAt: at, updatedAt: at })
    .where(eq(messages.id, messageId));
}

/**
 * The user's rewrite of a character's reply: a new alternative of it (shown; the original stays
 * as a swipe) in the chat `chatId`, marked edited. `hideOthers`: the other alternatives of the
 * chat's own group are no longer shown (false when they are shared with another chat).
 */
export async function insertEditedReply(
  db: Database,
  target: MessageRow,
  chatId: string,
  text: string,
  at: Date,
  hideOthers: boolean,
): Promise<MessageRow> {
  return db.transaction((tx) =>
    addToReplyGroup(tx, chatId, target, hideOthers, {
      text: wellFormed(text),
      tokens: estimateTokens(text),
      state: 'done',
      editedAt: at,
    }),
  );
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * A new character message in `target`'s reply group of the chat `chatId`: the next alternative,
 * shown (the group's others hidden when `hideOthers`), with `values` (its text and state).
 * It takes the target's place — its `seq` and `created_at` — so a reply regenerated or
 * rewritten anywhere in the history stays where it was (the pages, the prompt and the days all
 * read that order); only the group's alternatives share a `seq`, and only one of them is shown.
 * A branch whose shared history reaches that place (made from this chat after it) must not
 * show the new row: it gets a tombstone, as for any change after its fork (copy on write).
 */
async function addToReplyGroup(
  tx: Transaction,
  chatId: string,
  target: MessageRow,
  hideOthers: boolean,
  values: Pick<NewMessageRow, 'text'> & Partial<NewMessageRow>,
): Promise<MessageRow> {
  const group = and(eq(messages.chatId, chatId), eq(messages.replyTo, target.replyTo!));
  const [last] = await tx
    .select({ max: sql<number>`max(${messages.altIndex})`.mapWith(Number) })
    .from(messages)
    .where(group);
  if (hideOthers) await tx.update(messages).set({ selected: false }).where(group);
  const [row] = await tx
    .insert(messages)
    .values({
      chatId,
      userId: target.userId,
      role: 'bot',
      kind: 1,
      replyTo: target.replyTo,
      // In a group scene, the same character answers again (docs/groups.md).
      speaker: target.speaker,
      altIndex: last?.max === null || last?.max === undefined ? 0 : last.max + 1,
      selected: true,
      seq: target.seq,
      createdAt: target.createdAt,
      ...values,
    })
    .returning();
  await tx.execute(sql`
    insert into ${messageOverrides} (chat_id, message_id, deleted)
    select ${chatSegments.chatId}, ${row!.id}::uuid, true from ${chatSegments}
    where ${chatSegments.sourceChatId} = ${chatId}::uuid and ${chatSegments.throughSeq} >= ${target.seq}::bigint
    on conflict (chat_id, message_id) do update set deleted = true`);
  return row!;
}

/** Files a deleted message held (removed from storage once the rows are gone). */
export type MessageMedia = { mediaKey: string | null; originalKey: string | null; audioKey: string | null };

/**
 * Deletes the chat's own messages `ids` (with the alternatives answering them when asked) and
 * answers the ids really deleted and the files they held.
 */
export async function deleteOwnMessages(
  db: Database,
  chatId: string,
  ids: string[],
): Promise<{ ids: string[]; media: MessageMedia[] }> {
  if (ids.length === 0) return { ids: [], media: [] };
  const rows = await db
    .delete(messages)
    .where(and(eq(messages.chatId, chatId), inArray(messages.id, ids)))
    .returning({
      id: messages.id,
      mediaKey: messages.mediaKey,
      originalKey: messages.originalKey,
      audioKey: messages.audioKey,
    });
  await db.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, chatId));
  return {
    ids: rows.map((r) => r.id),
    media: rows
      .filter((r) => r.mediaKey || r.originalKey || r.audioKey)
      .map(({ mediaKey, originalKey, audioKey }) => ({ mediaKey, originalKey, audioKey })),
  };
}

/** The alternatives of a reply group in one chat (a reply is deleted with its swipes). */
export async function replyGroup(db: Database, chatId: string, replyTo: string) {
  return db
    .select({ id: messages.id, seq: messages.seq, chatId: messages.chatId })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.replyTo, replyTo)));
}
