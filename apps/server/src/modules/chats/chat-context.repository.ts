/**
 * The chats module's read model (docs/ARCHITECTURE.md "Boundaries"): what a chat is shown and
 * answered with, read across the tables of other modules in one statement — the chat with its
 * character (`bots`) and the user's name (`users`), the prompt's history, the chats list with
 * its characters, the user's persona. Reads only; the bots and accounts modules own those rows.
 */
import { and, desc, eq, exists, ilike, isNull, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { bots, chats, lorebooks, memories, messageOverrides, messages, users } from '../../db/schema.js';
import { notDeletedIn, segmentsOf } from './branches.repository.js';
import type { ChatRow } from './chats.repository.js';
import type { MessageRow } from './messages.repository.js';

/** Per-turn tokens beyond the text (the prompt builder's MESSAGE_OVERHEAD_TOKENS). */
const HISTORY_TURN_OVERHEAD = 4;

type BotRow = typeof bots.$inferSelect;

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
 * The shown messages the prompt is built from, oldest first: the newest up to and including
 * `throughSeq` (null: all), after the memory summary's `afterSeq` — at most `limit`, and no
 * more than cover `budget` tokens by the counts stored with each message (so a chat of ten
 * thousand messages reads what one prompt can hold, like a new one).
 */
export type PromptRow = Pick<MessageRow, 'id' | 'seq' | 'role' | 'text' | 'tokens'> & {
  /** Who said it, in a group scene (docs/groups.md); null otherwise. */
  speaker?: MessageRow['speaker'];
};

export async function promptHistory(
  db: Database,
  chatId: string,
  options: { throughSeq: number | null; afterSeq: number; limit: number; budget?: number },
): Promise<PromptRow[]> {
  const rows = await readHistory(db, {
    chatId,
    afterSeq: options.afterSeq,
    throughSeq: options.throughSeq ?? Number.MAX_SAFE_INTEGER,
    limit: options.limit,
    budget: options.budget ?? 2 ** 31 - 1,
  });
  return rows.reverse();
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
  | 'translations'
>;

/** A character's embedded lorebook as the card stores it (the prompt reads its entries). */
export type CharacterBook = NonNullable<PromptBot['characterBook']>;

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
          translations: bots.translations,
        },
        userName: users.name,
        username: users.username,
        history: (history ?? sql`null`) as SQL<PromptRow[] | string | null>,
        // Whether a reply of the chat is being written (a send then starts no model request
        // before its rows are in: the insert answers 409, or sweeps a dead one first).
        liveReply: sql<boolean>`exists (select 1 from ${messages} where ${messages.chatId} = ${chats.id} and ${messages.state} = 'streaming')`,
        // Whether the pair has long-term memories, and whether the character or the user has a
        // stored lorebook (the user's own, global or attached, counted whichever): when not,
        // the reply's prompt skips reading them (a statement each, before the model is asked).
        storedMemories: sql<boolean>`exists (select 1 from ${memories} where ${memories.userId} = ${chats.userId} and ${memories.botId} = ${chats.botId})`,
        storedBooks: sql<boolean>`(exists (select 1 from ${lorebooks} where ${lorebooks.botId} = ${chats.botId})
          or exists (select 1 from ${lorebooks} where ${lorebooks.userId} = ${chats.userId} and ${lorebooks.botId} is null))`,
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
    chatContextWithHistory: context(historyJson(), 'chats_context_history'),
  };
}

/**
 * The newest shown messages of a chat's history (its own and, for a branch, those it shares
 * with its ancestors: `segmentsOf`) with the running total of their tokens, newest first:
 * after `afterSeq`, through `throughSeq`, at most `limit` (each segment reads at most `limit`
 * rows through its index). A row is kept while what came before it still fits `budget`
 * (`fitsBudget`; so the oldest kept row may overflow it: the prompt builder cuts). The chat's
 * own edits of shared messages (`message_overrides`) replace their text.
 */
function newestHistory(
  chatId: SQLWrapper,
  bounds: { afterSeq: SQLWrapper | number; throughSeq: SQLWrapper | number; limit: SQLWrapper | number },
): SQL {
  return sql`(select m.id, m.seq, m.role, coalesce(o.text, m.text) as text, coalesce(o.tokens, m.tokens) as tokens, m.speaker,
      sum(coalesce(o.tokens, m.tokens) + ${sql.raw(String(HISTORY_TURN_OVERHEAD))}) over (order by m.seq desc) as running
    from ${segmentsOf(chatId)} l
    cross join lateral (
      select m.id, m.seq, m.role, m.text, m.tokens, m.speaker from ${messages} m
      where m.chat_id = l.c and m.seq <= l.s and m.selected and m.private_to is null
        and m.seq > ${bounds.afterSeq} and m.seq <= ${bounds.throughSeq} and ${notDeletedIn(chatId)}
      order by m.chat_id desc, m.seq desc limit ${bounds.limit}) m
    left join ${messageOverrides} o on o.chat_id = ${chatId}::uuid and o.message_id = m.id
    order by m.seq desc limit ${bounds.limit})`;
}

const fitsBudget = (budget: SQLWrapper | number) =>
  sql`h.running - h.tokens - ${sql.raw(String(HISTORY_TURN_OVERHEAD))} < ${budget}`;

/** The prompt's history of a chat after `afterSeq`, newest first. */
async function readHistory(
  db: Database,
  params: { chatId: string; afterSeq: number; throughSeq: number; limit: number; budget: number },
): Promise<PromptRow[]> {
  const h = newestHistory(sql`${params.chatId}`, {
    afterSeq: sql`${params.afterSeq}::bigint`,
    throughSeq: sql`${params.throughSeq}::bigint`,
    limit: params.limit,
  });
  const result = await db.execute(
    sql`select h.id, h.seq, h.role, h.text, h.tokens, h.speaker from ${h} h where ${fitsBudget(params.budget)} order by h.seq desc`,
  );
  return rowsOf<PromptRow>(result).map(promptRowOf);
}

/**
 * The same history of the chat of the enclosing query after its memory, as a JSON array,
 * oldest first: the chat and its history are then read in one statement.
 */
function historyJson(): SQL<PromptRow[] | string | null> {
  const h = newestHistory(sql`${chats.id}`, {
    afterSeq: chats.memoryThroughSeq,
    throughSeq: sql`${sql.placeholder('throughSeq')}::bigint`,
    limit: sql`${sql.placeholder('limit')}::int`,
  });
  return sql`(select coalesce(json_agg(json_build_object('id', h.id, 'seq', h.seq, 'role', h.role, 'text', h.text, 'tokens', h.tokens, 'speaker', h.speaker) order by h.seq), '[]'::json) from ${h} h where ${fitsBudget(sql`${sql.placeholder('budget')}::int`)})`;
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

/** The chat as a send reads it: its character, the user's name and, when asked, the prompt's history. */
export interface ChatContext {
  chat: ChatRow;
  bot: PromptBot;
  userName: string;
  history: PromptRow[] | null;
  /** A reply of the chat was streaming when it was read (possibly one whose writer died). */
  liveReply: boolean;
  /** What the pair has stored for a prompt (false: none, its read is skipped). */
  stored: StoredForPrompt;
}

/** Whether the pair has long-term memories and lorebooks (the character's, the user's) for a prompt. */
export interface StoredForPrompt {
  memories: boolean;
  lorebooks: boolean;
}

/** PGlite and postgres.js both give a boolean; a driver giving 't' still reads true. */
const isTrue = (value: unknown) => value === true || value === 't';

/**
 * The user's chat with its character and the user's name, in one query; null if not theirs.
 * With `history`, the same statement reads the prompt's history too (see `promptHistory`).
 */
export async function findChatContext(
  db: Database,
  chatId: string,
  userId: string,
  history?: { limit: number; budget?: number },
): Promise<ChatContext | null> {
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
    liveReply: isTrue(row.liveReply),
    stored: { memories: isTrue(row.storedMemories), lorebooks: isTrue(row.storedBooks) },
  };
}

/** The history as JSON rows (a string from drivers that leave JSON unparsed). */
function parseHistory(value: PromptRow[] | string): PromptRow[] {
  const rows = typeof value === 'string' ? (JSON.parse(value) as PromptRow[]) : value;
  return rows.map(promptRowOf);
}

/** A history row as a driver answers it: numbers as numbers, the speaker parsed (null when none). */
function promptRowOf(row: PromptRow): PromptRow {
  const speaker = typeof row.speaker === 'string' ? (JSON.parse(row.speaker) as PromptRow['speaker']) : row.speaker;
  return { ...row, seq: Number(row.seq), tokens: Number(row.tokens), speaker: speaker ?? null };
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
    .where(and(eq(bots.id, personaId), eq(bots.authorId, userId), eq(bots.kind, 'persona'), isNull(bots.deletedAt)));
  return row ?? null;
}
