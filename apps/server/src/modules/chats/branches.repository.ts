/**
 * Branches and a chat's visible history (issue 29, docs/chat.md "Branches"): the tables
 * `chat_segments` (the shared history of a branch: an ancestor's messages up to a `seq`) and
 * `message_overrides` (a chat's own edit or deletion of a message it shares, copy on write).
 * Every read of a chat's history goes through `segmentsOf`: the chat's own messages and, for a
 * branch, its ancestors' up to the fork — rows shared, never copied.
 */
import { and, eq, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { executePrepared } from '../../db/prepared.js';
import { hasRow, insertRow } from '../../db/rows.js';
import { chatSegments, chats, messageOverrides, messages } from '../../db/schema.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import type { ChatRow } from './chats.repository.js';
import { messageFromRaw, type MessageWithAlts } from './messages.repository.js';

const MAX_SEQ = '9223372036854775807';

/**
 * The columns of `messages` the code knows, as `m."…"` (not `m.*`: the stored `search_vector`
 * of migration 0015, which only the search reads, stays in the database).
 */
const messageColumns = sql.raw(
  Object.values(getTableColumns(messages))
    .map((column) => `m."${column.name}"`)
    .join(', '),
);

/** The segments of a chat's history: `(c, s)` — the messages of chat `c` up to `seq` `s`. */
export const segmentsOf = (chatId: SQLWrapper | string): SQL =>
  sql`(select ${chatId}::uuid as c, ${sql.raw(MAX_SEQ)}::bigint as s
    union all select ${chatSegments.sourceChatId}, ${chatSegments.throughSeq} from ${chatSegments}
    where ${chatSegments.chatId} = ${chatId}::uuid)`;

/** A message of the segment the chat `chatId` has not deleted for itself. */
export const notDeletedIn = (chatId: SQLWrapper | string, message: SQL = sql`m.id`): SQL =>
  sql`not exists (select 1 from ${messageOverrides} o where o.chat_id = ${chatId}::uuid and o.message_id = ${message} and o.deleted)`;

/** The segments of a chat's history as values: its own messages (to the end) and its ancestors'. */
async function readSegments(db: Database, chatId: string): Promise<{ c: string; s: string }[]> {
  const result = await executePrepared(
    db,
    'chat-segments',
    sql`select ${chatSegments.sourceChatId} as c, ${chatSegments.throughSeq} as s from ${chatSegments}
      where ${chatSegments.chatId} = ${chatId}::uuid`,
  );
  const rows = rowsOf<{ c: string; s: number | string }>(result);
  return [{ c: chatId, s: MAX_SEQ }, ...rows.map((r) => ({ c: r.c, s: String(r.s) }))];
}

/**
 * The newest (or oldest) `limit` rows of each segment matching `where`, as one UNION ALL whose
 * every part names its chat as a value: each part is planned with that chat's own statistics
 * and read through the index `(chat_id, seq)` — a branch with no messages of its own yet is
 * never a walk along the global index of `seq`.
 */
function perSegment(
  segments: { c: string; s: string }[],
  where: SQL,
  order: SQL,
  limit: number,
  extraColumns: SQL = sql``,
): SQL {
  const parts = segments.map(
    (segment) => sql`(select ${messageColumns}${extraColumns} from messages m
      where m.chat_id = ${segment.c}::uuid and m.seq <= ${segment.s}::bigint and ${where}
      order by m.seq ${order} limit ${limit})`,
  );
  return sql.join(parts, sql` union all `);
}

/** How many replies answer the same user message in the message's own chat (the swipe's "i/n"). */
const altCountOf = sql`case when m.reply_to is null then 1 else (
  select count(*)::int from messages m2 where m2.reply_to = m.reply_to and m2.chat_id = m.chat_id) end`;

/** A raw row of `visibleMessages` → the message as this chat shows it (its own edit applied). */
function visibleFromRaw(raw: Record<string, unknown>): MessageWithAlts {
  const row = messageFromRaw(raw);
  if (raw.o_text !== null && raw.o_text !== undefined) row.text = String(raw.o_text);
  if (raw.o_edited_at) row.editedAt = new Date(raw.o_edited_at as string);
  return { ...row, altCount: Number(raw.alt_count ?? 1) };
}

/**
 * The shown messages of a chat (its own and those it shares with its ancestors), in `seq`
 * order `direction`, at most `limit`, within the bounds. Each segment is read through the
 * index `(chat_id, seq)` and at most `limit` rows of it: a page of a 100 000-message chat or of
 * its branch costs the same as of a short chat.
 */
export async function visibleMessages(
  db: Database,
  chatId: string,
  options: {
    beforeSeq?: number | null;
    afterSeq?: number | null;
    limit: number;
    direction: 'asc' | 'desc';
    /** Only user and character messages (no platform notice): a chat's preview. */
    realOnly?: boolean;
  },
): Promise<MessageWithAlts[]> {
  const order = sql.raw(options.direction);
  const before = options.beforeSeq ?? null;
  const after = options.afterSeq ?? null;
  // Bounds only when given (a bound that may be null is no index condition in a generic plan).
  const where = sql`m.selected
        ${before === null ? sql`` : sql`and m.seq < ${before}::bigint`}
        ${after === null ? sql`` : sql`and m.seq > ${after}::bigint`}
        and ${notDeletedIn(chatId)}
        ${options.realOnly ? sql`and m.role <> 'system' and m.kind <> 9999` : sql``}`;
  const segments = await readSegments(db, chatId);
  // Prepared: its text varies only with the number of segments and which bounds are given, a
  // handful per connection; planning it afresh cost ≈ 2 ms a page (unnamed statements are
  // planned at every bind) and an extra round trip.
  const result = await executePrepared(
    db,
    'history-page',
    sql`
    select ${messageColumns}, o.text as o_text, o.edited_at as o_edited_at, ${altCountOf} as alt_count
    from (${perSegment(segments, where, order, options.limit)}) m
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    order by m.seq ${order} limit ${options.limit}`,
  );
  return rowsOf<Record<string, unknown>>(result).map(visibleFromRaw);
}

/** One alternative of a reply, as the chat `chatId` shows it (its own edit applied). */
export interface Alternative {
  replyTo: string;
  altIndex: number;
  text: string;
  createdAt: Date;
}

/**
 * The alternatives (swipes) of the shown replies that have several, as the chat `chatId` shows
 * them: each reply group of the reply's own chat (as `altCountOf` counts them), oldest first,
 * the chat's deletions left out and its edits applied — one read for a page of the export.
 * Keyed by `<chat id>:<reply_to>`.
 */
export async function alternativesOf(
  db: Database,
  chatId: string,
  shown: MessageWithAlts[],
): Promise<Map<string, Alternative[]>> {
  const groups = shown.filter((m) => m.altCount > 1 && m.replyTo);
  const out = new Map<string, Alternative[]>();
  if (groups.length === 0) return out;
  const pairs = sql.join(
    groups.map((m) => sql`(${m.chatId}::uuid, ${m.replyTo}::uuid)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select m.chat_id, m.reply_to, m.alt_index, coalesce(o.text, m.text) as text, m.created_at
    from (values ${pairs}) as g(c, r)
    join messages m on m.chat_id = g.c and m.reply_to = g.r
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    where ${notDeletedIn(chatId)}
    order by m.alt_index, m.seq`);
  for (const row of rowsOf<Record<string, unknown>>(result)) {
    const key = `${String(row.chat_id)}:${String(row.reply_to)}`;
    const list = out.get(key) ?? [];
    list.push({
      replyTo: String(row.reply_to),
      altIndex: Number(row.alt_index),
      text: String(row.text),
      createdAt: new Date(row.created_at as string),
    });
    out.set(key, list);
  }
  return out;
}

/**
 * The sequence number of the first shown message of the chat's history (its own and, for a
 * branch, its ancestors' up to the fork) written at or after `at`; null when every one is
 * older: a jump to a date. Each segment is one read of `messages_chat_created_idx`
 * (`chat_id, created_at`), its chat named as a value like the pages'.
 */
export async function firstVisibleSeqFrom(db: Database, chatId: string, at: Date): Promise<number | null> {
  const segments = await readSegments(db, chatId);
  const parts = segments.map(
    (segment) => sql`(select m.seq, m.created_at from messages m
      where m.chat_id = ${segment.c}::uuid
        ${segment.s === MAX_SEQ ? sql`` : sql`and m.seq <= ${segment.s}::bigint`}
        and m.selected and m.created_at >= ${at.toISOString()}::timestamptz and ${notDeletedIn(chatId)}
      order by m.created_at, m.seq limit 1)`,
  );
  const result = await db.execute(sql`
    select f.seq from (${sql.join(parts, sql` union all `)}) f order by f.created_at, f.seq limit 1`);
  const [row] = rowsOf<{ seq: number | string }>(result);
  return row ? Number(row.seq) : null;
}

/** A message of the chat's history (its own, or shared from an ancestor and not deleted here). */
export async function findVisibleMessage(
  db: Database,
  chatId: string,
  messageId: string,
): Promise<MessageWithAlts | null> {
  const result = await db.execute(sql`
    select ${messageColumns}, o.text as o_text, o.edited_at as o_edited_at, ${altCountOf} as alt_count
    from messages m
    join ${segmentsOf(chatId)} l on m.chat_id = l.c and m.seq <= l.s
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    where m.id = ${messageId}::uuid and o.deleted is not true`);
  const [raw] = rowsOf<Record<string, unknown>>(result);
  return raw ? visibleFromRaw(raw) : null;
}

/**
 * Whether a message is shared: another chat of the tree reads it (a branch made after it), so
 * it is never changed in place — the chat's change is an override.
 */
export async function isShared(db: Database, message: { chatId: string; seq: number }): Promise<boolean> {
  return hasRow(
    db,
    chatSegments,
    and(eq(chatSegments.sourceChatId, message.chatId), sql`${chatSegments.throughSeq} >= ${message.seq}`),
  );
}

/** The chat's own edit of a shared message (the shared row stays as it is). */
export async function overrideText(db: Database, chatId: string, messageId: string, text: string, at: Date) {
  await db
    .insert(messageOverrides)
    .values({ chatId, messageId, text, tokens: estimateTokens(text), editedAt: at })
    .onConflictDoUpdate({
      target: [messageOverrides.chatId, messageOverrides.messageId],
      set: { text, tokens: estimateTokens(text), editedAt: at, deleted: false },
    });
}

/** The chat's own deletion of shared messages (tombstones; the other chats keep them). */
export async function overrideDeleted(db: Database, chatId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .insert(messageOverrides)
    .values(messageIds.map((messageId) => ({ chatId, messageId, deleted: true })))
    .onConflictDoUpdate({
      target: [messageOverrides.chatId, messageOverrides.messageId],
      set: { deleted: true },
    });
}

/**
 * A new branch of `parent` at the message `fork` (of `parent`'s history): one chat row, its
 * segments (the parent's up to the fork, and the parent's own up to it) and the parent's
 * overrides of the shared part — never the messages: constant time in the chat's length.
 */
export async function insertBranch(
  db: Database,
  parent: ChatRow,
  fork: { id: string; seq: number },
  title: string | null,
): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    const chat = await insertRow(tx, chats, {
      userId: parent.userId,
      botId: parent.botId,
      personaId: parent.personaId,
      modelId: parent.modelId,
      title,
      // The memory covers messages of the branch only when it was written before the fork.
      memory: parent.memoryThroughSeq <= fork.seq ? parent.memory : '',
      memoryUpdatedAt: parent.memoryThroughSeq <= fork.seq ? parent.memoryUpdatedAt : null,
      memoryThroughSeq: parent.memoryThroughSeq <= fork.seq ? parent.memoryThroughSeq : 0,
      disclosedAt: parent.disclosedAt,
      parentChatId: parent.id,
      rootChatId: parent.rootChatId ?? parent.id,
      forkMessageId: fork.id,
    });
    const id = chat.id;
    await tx.execute(sql`
      insert into chat_segments (chat_id, source_chat_id, through_seq)
      select ${id}::uuid, l.c, least(l.s, ${fork.seq}::bigint) from ${segmentsOf(parent.id)} l
      where exists (select 1 from messages m where m.chat_id = l.c and m.seq <= least(l.s, ${fork.seq}::bigint))`);
    await tx.execute(sql`
      insert into message_overrides (chat_id, message_id, text, tokens, deleted, edited_at)
      select ${id}::uuid, o.message_id, o.text, o.tokens, o.deleted, o.edited_at
      from message_overrides o join messages m on m.id = o.message_id
      where o.chat_id = ${parent.id}::uuid and m.seq <= ${fork.seq}::bigint`);
    return chat;
  });
}

/** A chat of a branch tree with its shown message count (the branch switcher). */
export interface TreeChat {
  chat: ChatRow;
  messageCount: number;
}

/**
 * Every chat of the tree `rootId` (the root and its branches) with how many messages each
 * shows. The count reads the index of each chat's segments (a switcher opened rarely).
 */
export async function branchTree(db: Database, userId: string, rootId: string): Promise<TreeChat[]> {
  const rows = await db
    .select({
      chat: chats,
      messageCount: sql<number>`(select count(*)::int from ${segmentsOf(chats.id)} l
        join messages m on m.chat_id = l.c and m.seq <= l.s
        where m.selected and m.role <> 'system' and ${notDeletedIn(chats.id)})`.mapWith(Number),
    })
    .from(chats)
    .where(and(eq(chats.userId, userId), sql`(${chats.id} = ${rootId}::uuid or ${chats.rootChatId} = ${rootId}::uuid)`))
    .orderBy(chats.createdAt, chats.id);
  return rows;
}

/** The ids of the chat's own messages from `seq` on (its later own rows). */
export async function ownMessagesFrom(db: Database, chatId: string, seq: number) {
  return db
    .select({ id: messages.id, seq: messages.seq, chatId: messages.chatId })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), sql`${messages.seq} >= ${seq}`));
}

/**
 * The messages of the chat's history from `seq` on (all alternatives of their replies), with
 * their chat and whether another chat shares them: "delete from here".
 */
export async function visibleFrom(
  db: Database,
  chatId: string,
  seq: number,
): Promise<{ id: string; chatId: string; shared: boolean }[]> {
  const result = await db.execute(sql`
    select m.id, m.chat_id, (m.chat_id <> ${chatId}::uuid or exists (
        select 1 from chat_segments s where s.source_chat_id = m.chat_id and s.through_seq >= m.seq)) as shared
    from ${segmentsOf(chatId)} l
    join messages m on m.chat_id = l.c and m.seq <= l.s
    where m.seq >= ${seq}::bigint and ${notDeletedIn(chatId)}`);
  return rowsOf<{ id: string; chat_id: string; shared: boolean | string }>(result).map((r) => ({
    id: r.id,
    chatId: r.chat_id,
    shared: r.shared === true || r.shared === 't',
  }));
}

/**
 * Words reduced by PostgreSQL's Snowball dictionaries (`english_stem`, `russian_stem`, …), in
 * one round trip; a word the dictionary leaves out (a stop word) stays as it is.
 */
export async function lexize(db: Database, words: { word: string; dictionary: string }[]): Promise<string[]> {
  const result = await db.execute(sql`
    select coalesce(nullif((ts_lexize(v.dict::regdictionary, v.word))[1], ''), v.word) as stem
    from json_to_recordset(${JSON.stringify(words.map((w, i) => ({ i, word: w.word, dict: w.dictionary })))}::json)
      as v(i int, word text, dict text)
    order by v.i`);
  return rowsOf<{ stem: string }>(result).map((r) => r.stem);
}

/** How many of the newest messages a search reads in order before it asks the word index. */
const SEARCH_WINDOW = 2000;

/**
 * The newest shown user and character messages of the chat's history matching `tsquery` (of
 * the `simple` configuration), at most `limit`. Two plans, chosen here rather than by the
 * planner (whose estimates cannot see how a chat's words are spread): first the newest
 * SEARCH_WINDOW messages in order, through the chat's index (a frequent word is found there at
 * once); when they hold fewer than `limit` hits, the word index `messages_search_idx`, asked for
 * the chat's id and the words together (`#<chat id>` is a word of every message), then sorted:
 * a rare word costs its few rows, never a walk through the whole chat.
 */
export async function searchMessages(
  db: Database,
  chatId: string,
  tsquery: string,
  limit: number,
): Promise<MessageWithAlts[]> {
  const query = sql`to_tsquery('simple'::regconfig, ${tsquery})`;
  const segments = await readSegments(db, chatId);
  const shown = sql`m.selected and m.role <> 'system' and m.kind <> 9999 and ${notDeletedIn(chatId)}`;
  const recent = await db.execute(sql`
    select ${messageColumns}, o.text as o_text, o.edited_at as o_edited_at, ${altCountOf} as alt_count
    from (
      select * from (${perSegment(segments, shown, sql.raw('desc'), SEARCH_WINDOW, sql`, m.search_vector`)}) m
      order by m.seq desc limit ${SEARCH_WINDOW}) m
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    where m.search_vector @@ ${query}
    order by m.seq desc limit ${limit}`);
  const hits = rowsOf<Record<string, unknown>>(recent);
  // Fewer than asked among the newest: the older ones through the word index.
  if (hits.length >= limit) return hits.map(visibleFromRaw);
  const result = await db.execute(sql`
    select ${messageColumns}, o.text as o_text, o.edited_at as o_edited_at, ${altCountOf} as alt_count
    from ${segmentsOf(chatId)} l
    cross join lateral (
      select ${messageColumns} from messages m
      where m.search_vector @@ (('#' || l.c::text)::tsquery && ${query})
        and m.role <> 'system' and m.seq + 0 <= l.s and m.selected and m.kind <> 9999
        and ${notDeletedIn(chatId)}
      -- Sorted after the word index answered (never a walk along an index of seq).
      order by m.seq + 0 desc limit ${limit}) m
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    order by m.seq desc limit ${limit}`);
  return rowsOf<Record<string, unknown>>(result).map(visibleFromRaw);
}
