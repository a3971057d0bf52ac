/**
 * The memories module's SQL (docs/memory.md): `memories`, `memory_revisions`,
 * `message_memories`, `memory_extractions`, `memory_settings`, `journal_entries`. A read model
 * of `chats` and `messages` (the extraction reads the pair's chats and their new messages, and
 * the summaries it copies once), stated in docs/ARCHITECTURE.md.
 */
import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { executePrepared } from '../../db/prepared.js';
import { deleteRows, hasRow, insertIfAbsent } from '../../db/rows.js';
import {
  chats,
  journalEntries,
  memories,
  memoryExtractions,
  memoryRevisions,
  memorySettings,
  messageMemories,
  messages,
} from '../../db/schema.js';
import { decodeFloat4Vector, type VectorValue } from '../../db/float4-vector.js';

export type MemoryRow = typeof memories.$inferSelect;
export type MemoryRevisionRow = typeof memoryRevisions.$inferSelect;
export type JournalRow = typeof journalEntries.$inferSelect;
export type MemoryValues = Omit<typeof memories.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
type RevisionValues = Omit<typeof memoryRevisions.$inferInsert, 'id' | 'createdAt'>;

/** The columns every read of a memory needs (the stored terms and embedding stay behind). */
const shown = {
  id: memories.id,
  userId: memories.userId,
  botId: memories.botId,
  kind: memories.kind,
  text: memories.text,
  eventDate: memories.eventDate,
  importance: memories.importance,
  pinned: memories.pinned,
  origin: memories.origin,
  sourceMessageIds: memories.sourceMessageIds,
  dedupeKey: memories.dedupeKey,
  createdAt: memories.createdAt,
  updatedAt: memories.updatedAt,
};
export type ShownMemory = Omit<MemoryRow, 'terms' | 'embedding' | 'vector'>;

const pair = (userId: string, botId: string) => and(eq(memories.userId, userId), eq(memories.botId, botId));

/**
 * Adds a memory, or merges it into the pair's memory with the same dedupe key (its sources
 * joined, the higher importance kept): answers the row and whether it is new. One statement,
 * so two replicas adding the same statement leave one row.
 */
export async function upsertMemory(
  db: Database,
  values: MemoryValues,
): Promise<{ row: ShownMemory; created: boolean }> {
  const [row] = await db
    .insert(memories)
    .values(values)
    .onConflictDoUpdate({
      target: [memories.userId, memories.botId, memories.dedupeKey],
      set: {
        sourceMessageIds: sql`(select coalesce(array_agg(distinct s), '{}') from unnest(${memories.sourceMessageIds} || excluded.source_message_ids) s)`,
        importance: sql`greatest(${memories.importance}, excluded.importance)`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ ...shown, created: sql<boolean>`(xmax = 0)` });
  const { created, ...memory } = row!;
  return { row: memory, created: Boolean(created) };
}

export async function insertRevision(db: Database, values: RevisionValues): Promise<void> {
  await db.insert(memoryRevisions).values(values);
}

export async function updateMemory(
  db: Database,
  id: string,
  values: Partial<Omit<MemoryValues, 'userId' | 'botId'>>,
  /** false: the memory's content is unchanged (a pin), so is its `updated_at` (its recency, its "updated" date). */
  touch = true,
): Promise<ShownMemory | null> {
  const [row] = await db
    .update(memories)
    .set(touch ? { ...values, updatedAt: sql`now()` } : values)
    .where(eq(memories.id, id))
    .returning(shown);
  return row ?? null;
}

/** The user's memory of this id; null for another user's or none. */
export async function findOwnMemory(db: Database, userId: string, id: string): Promise<ShownMemory | null> {
  const [row] = await db
    .select(shown)
    .from(memories)
    .where(and(eq(memories.id, id), eq(memories.userId, userId)));
  return row ?? null;
}

/** The pair's memories of these ids (ids of others' or forgotten ones are left out). */
export async function findPairMemories(
  db: Database,
  userId: string,
  botId: string,
  ids: string[],
): Promise<ShownMemory[]> {
  if (!ids.length) return [];
  return db
    .select(shown)
    .from(memories)
    .where(and(pair(userId, botId), inArray(memories.id, ids)));
}

/** What a list of the pair's memories is filtered by. */
interface ListFilter {
  kind?: MemoryRow['kind'];
  pinned?: boolean;
}

const listFilter = (userId: string, botId: string, options: ListFilter): (SQL | undefined)[] => [
  pair(userId, botId),
  options.kind ? eq(memories.kind, options.kind) : undefined,
  options.pinned !== undefined ? eq(memories.pinned, options.pinned) : undefined,
];

/** How many of the pair's memories (filtered) there are of each kind; kinds with none left out. */
export async function countMemoriesByKind(
  db: Database,
  userId: string,
  botId: string,
  options: ListFilter,
): Promise<Partial<Record<MemoryRow['kind'], number>>> {
  const rows = await db
    .select({ kind: memories.kind, count: sql<number>`count(*)::int` })
    .from(memories)
    .where(and(...listFilter(userId, botId, options)))
    .groupBy(memories.kind);
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.count)]));
}

/** A page of the pair's memories: pinned first, then newest; keyset after `after`. */
export async function listMemories(
  db: Database,
  userId: string,
  botId: string,
  options: ListFilter & {
    size: number;
    after?: { pinned: boolean; updatedAt: string; id: string };
  },
): Promise<ShownMemory[]> {
  const where = listFilter(userId, botId, options);
  const after = options.after;
  if (after) {
    const rest = or(
      lt(memories.updatedAt, new Date(after.updatedAt)),
      and(eq(memories.updatedAt, new Date(after.updatedAt)), lt(memories.id, after.id)),
    );
    where.push(
      after.pinned
        ? or(eq(memories.pinned, false), and(eq(memories.pinned, true), rest))
        : and(eq(memories.pinned, false), rest),
    );
  }
  return db
    .select(shown)
    .from(memories)
    .where(and(...where))
    .orderBy(desc(memories.pinned), desc(memories.updatedAt), desc(memories.id))
    .limit(options.size);
}

/**
 * A memory's stored vector as base64 text, in a statement over `memories` aliased `alias`: the
 * `vector` column, or for a memory a replica of a version before migration 0029 wrote
 * (`embedding` only, a `real[]`) that one converted (docs/memory.md "Embeddings"). Base64, not
 * the bytes: `bytea` travels as hex text, two characters a byte, and a prompt's read carries
 * up to ≈ 500 vectors — as base64 a third less to write, send and decode (bench/README.md
 * "Memory vectors as base64").
 */
const storedVector = (alias: string) =>
  sql.raw(`encode(coalesce(${alias}.vector, memories_float4_bytes(${alias}.embedding)), 'base64')`);

/**
 * What a search adds to a memory: which query terms it holds, how many terms it has, its
 * embedding (as the statement returned it: the ranking compares it without decoding it).
 */
export interface SearchTerms {
  matched: string[];
  termCount: number;
  embedding: VectorValue | null;
}

/** A candidate of a search: the memory and its `SearchTerms`. */
export type SearchCandidate = ShownMemory & SearchTerms;

/** What the ranking and a prompt's line read of a memory (all a prompt's read returns). */
export type PromptMemory = Pick<ShownMemory, 'id' | 'kind' | 'text' | 'eventDate' | 'importance' | 'updatedAt'>;

const shownColumns = Object.entries(shown) as [keyof ShownMemory, (typeof shown)[keyof typeof shown]][];

/** The shown columns of alias `t`, each named as its key (the raw row maps back through `fromRaw`). */
const shownSelect = (t: string): SQL =>
  sql.raw(shownColumns.map(([key, column]) => `${t}.${column.name} as "${key}"`).join(', '));

/** A row of a raw statement selecting `shownSelect` (+ the search's columns) → the memory, as the query builder maps it. */
function fromRaw(raw: Record<string, unknown>): ShownMemory {
  const row: Record<string, unknown> = {};
  for (const [key, column] of shownColumns) {
    const value = raw[key];
    row[key] =
      value === null || value === undefined ? null : (column.mapFromDriverValue as (v: unknown) => unknown)(value);
  }
  return row as ShownMemory;
}

function searchTermsFromRaw(raw: Record<string, unknown>): SearchTerms {
  const matched = raw.matched;
  const embedding = raw.embedding;
  return {
    matched:
      typeof matched === 'string'
        ? (memories.terms.mapFromDriverValue(matched) as string[])
        : ((matched as string[] | null) ?? []),
    termCount: Number(raw.termCount),
    embedding: embedding === null || embedding === undefined ? null : (embedding as string | Uint8Array),
  };
}

/**
 * The query's terms as ONE parameter (stored terms hold no space): the statement's text stays
 * the same whatever their number, so the driver reuses its prepared statement.
 */
const termsArray = (scoped: string[]): SQL => sql`string_to_array(${scoped.join(' ')}, ' ')`;

/**
 * The same array for the comparisons made for every candidate (`t = any(…)`), as a scalar
 * subquery: PostgreSQL computes it once per execution (an InitPlan). Written as
 * `string_to_array($n, ' ')` there, a prepared statement's generic plan — the one it runs
 * after five executions — split the parameter again for each term of each candidate (≈ 1 100
 * times for a send's 220 candidates; custom plans fold it into a constant): 1.56 against
 * 1.16 ms of execution at the median, 2.49 against 1.69 at p90 (bench/README.md "Memory
 * retrieval, issue 28's last two targets").
 */
const termsOnce = (scoped: string[]): SQL => sql`(select ${termsArray(scoped)})::text[]`;

/**
 * The search of `searchCandidates` as one SELECT (docs/memory.md "Benchmark"): the memories
 * holding one of `finders` (all of `scoped` unless given: a prompt's are the new turn's terms,
 * `finders` of docs/memory.md "Retrieval"), each with the terms of `scoped` it holds. The GIN index on
 * the pair-scoped terms alone finds the rows: the pair condition stays outside the `offset 0`
 * subquery, since the planner otherwise ANDs the bitmap with the pair index's — every memory of
 * the pair (20 000 index entries, ¾ of the statement's buffers) read to confirm what the scoped
 * terms already say. It remains a filter, so a collision of pair keys can never show another
 * pair's memory. The matched terms are computed once per row (named in the subquery), as the
 * row's terms kept by `= any` of the query's (a memory's terms are distinct): a third of the
 * statement's time less than an `intersect`, which hashes both sides for every row.
 */
function candidatesQuery(
  userId: string,
  botId: string,
  scoped: string[],
  options: {
    limit: number;
    kind?: MemoryRow['kind'];
    withEmbedding?: boolean;
    columns?: SQL;
    src?: 'c';
    /** The terms that find the candidates (`finders`); all of `scoped` by default. */
    finders?: string[];
  },
): SQL {
  return sql`select ${options.columns ?? shownSelect('c')}, c.matched, cardinality(c.terms) as "termCount",
      ${options.withEmbedding ? sql`c.embedding` : sql`null::text`} as embedding${options.src ? sql.raw(`, 'c' as src`) : sql``}
    from (select ${sql.raw(shownColumns.map(([, column]) => `m.${column.name}`).join(', '))}, m.terms,
            ${options.withEmbedding ? sql`${storedVector('m')} as embedding` : sql`null::text as embedding`},
            array(select t from unnest(m.terms) t where t = any(${termsOnce(scoped)})) as matched
          from memories m where m.terms && ${termsArray(options.finders ?? scoped)} offset 0) c
    where c.user_id = ${userId} and c.bot_id = ${botId}${options.kind ? sql` and c.kind = ${options.kind}` : sql``}
    order by cardinality(c.matched) desc, c.updated_at desc
    limit ${options.limit}`;
}

/** Candidates in the order of the search: those holding the most query terms first, then newest. */
const bySearchOrder = (a: PromptMemory & SearchTerms, b: PromptMemory & SearchTerms) =>
  b.matched.length - a.matched.length || b.updatedAt.getTime() - a.updatedAt.getTime();

/**
 * The pair's memories holding any of `scoped` (pair-scoped terms) through the GIN index, with
 * the terms each holds: at most `limit`, those holding the most first.
 */
export async function searchCandidates(
  db: Database,
  userId: string,
  botId: string,
  scoped: string[],
  options: { limit: number; kind?: MemoryRow['kind']; withEmbedding?: boolean },
): Promise<SearchCandidate[]> {
  if (!scoped.length) return [];
  const rows = rowsOf<Record<string, unknown>>(await db.execute(candidatesQuery(userId, botId, scoped, options)));
  return rows.map((raw) => ({ ...fromRaw(raw), ...searchTermsFromRaw(raw) })).sort(bySearchOrder);
}

/** Pinned memories: most important first, then newest. */
const byPinnedOrder = (a: PromptMemory, b: PromptMemory) =>
  b.importance - a.importance || b.updatedAt.getTime() - a.updatedAt.getTime();

/** A prompt's columns of alias `t`: only what the ranking and the line read, the time in epoch ms (no date string to parse). */
const promptSelect = (t: string): SQL =>
  sql.raw(
    `${t}.id, ${t}.kind, ${t}.text, ${t}.event_date as "eventDate", ${t}.importance, (extract(epoch from ${t}.updated_at) * 1000)::float8 as "updatedAt"`,
  );

function promptMemoryFromRaw(raw: Record<string, unknown>): PromptMemory {
  return {
    id: raw.id as string,
    kind: raw.kind as PromptMemory['kind'],
    text: raw.text as string,
    eventDate: (raw.eventDate as string | null) ?? null,
    importance: Number(raw.importance),
    updatedAt: new Date(Number(raw.updatedAt)),
  };
}

/**
 * A prompt's reads in one statement when embeddings are on, or when the budget's walk needs
 * every candidate (docs/memory.md "Retrieval"): the pair's pinned memories
 * (at most `pinned`, through the partial index), the candidates of the search
 * (`candidatesQuery`) and, when embeddings are on, the `recent` newest memories with their
 * vectors (the semantic candidates), with only the columns the ranking and the prompt's lines
 * read. One round trip, one backend, one plan, and few values to decode.
 */
export function promptCandidatesQuery(
  userId: string,
  botId: string,
  scoped: string[],
  options: { pinned: number; limit: number; withEmbedding?: boolean; recent?: number; finders?: string[] },
): SQL {
  const pinnedQuery = sql`select ${promptSelect('p')}, null::text[] as matched, 0 as "termCount",
      null::text as embedding, 'p' as src
    from memories p where p.user_id = ${userId} and p.bot_id = ${botId} and p.pinned
    order by p.importance desc, p.updated_at desc
    limit ${options.pinned}`;
  const parts = [sql`(${pinnedQuery})`];
  if (scoped.length)
    parts.push(sql`(${candidatesQuery(userId, botId, scoped, { ...options, columns: promptSelect('c'), src: 'c' })})`);
  if (options.recent)
    parts.push(sql`(select ${promptSelect('r')}, null::text[] as matched, 0 as "termCount", ${storedVector('r')} as embedding, 'r' as src
      from memories r where r.user_id = ${userId} and r.bot_id = ${botId}
      order by r.updated_at desc
      limit ${options.recent})`);
  return sql.join(parts, sql` union all `);
}

/** `promptCandidatesQuery`'s rows, as the ranking takes them. */
export async function promptCandidates(
  db: Database,
  userId: string,
  botId: string,
  scoped: string[],
  options: { pinned: number; limit: number; withEmbedding?: boolean; recent?: number; finders?: string[] },
): Promise<{
  pinned: PromptMemory[];
  candidates: (PromptMemory & SearchTerms)[];
  recent: (PromptMemory & { embedding: VectorValue | null })[];
}> {
  const query = promptCandidatesQuery(userId, botId, scoped, options);
  // The statement's text depends only on which parts it has (the terms are one parameter):
  // with terms, it is prepared per shape — one round trip, parsed once per connection (its
  // generic plan reads the terms' GIN index: memories.ranked.test.ts; PostgreSQL still makes a
  // custom plan at each execution, as it did for `rankedByWords`). Without terms, unnamed.
  const shape = `memories-prompt-${options.withEmbedding ? 'vectors' : 'words'}-${options.recent ? 'recent' : 'found'}`;
  const rows = rowsOf<Record<string, unknown>>(
    scoped.length ? await executePrepared(db, shape, query) : await db.execute(query),
  );
  const pinned: PromptMemory[] = [];
  const candidates: (PromptMemory & SearchTerms)[] = [];
  const recent: (PromptMemory & { embedding: VectorValue | null })[] = [];
  for (const raw of rows) {
    if (raw.src === 'p') pinned.push(promptMemoryFromRaw(raw));
    else if (raw.src === 'c') candidates.push({ ...promptMemoryFromRaw(raw), ...searchTermsFromRaw(raw) });
    else recent.push({ ...promptMemoryFromRaw(raw), embedding: searchTermsFromRaw(raw).embedding });
  }
  return { pinned: pinned.sort(byPinnedOrder), candidates: candidates.sort(bySearchOrder), recent };
}

/**
 * A prompt's reads when embeddings are off, ranked by words in the statement (docs/memory.md
 * "Retrieval"): the pair's pinned memories and the `top` best of the search's candidates (the
 * memories holding one of `finders`, all of `scoped` unless given; at most `limit`, those
 * holding the most terms of `scoped` first, as `candidatesQuery`) by the score of
 * `rankMemories` — each shared term's rarity among the candidates, the memory's length,
 * importance and recency at `now` — with each shared term's count (`dfs`, the order of
 * `matched`), so that the process ranks them exactly as it ranks every candidate. Also: how
 * many candidates there were, and — when some were not returned — the shortest text of all the
 * candidates (a bound of the shortest not returned, counted in the pass that counts them rather
 * than in a second scan of the ranked rows: the walk within the budget may need the rest,
 * `MemoriesService.forPrompt`, and a lower bound only makes it read them a little more often).
 * The candidates' times are whole milliseconds from `date_part` (float, exact to the
 * microsecond here), not `extract`'s numeric: the same values, ≈ 0.1 ms less execution for 220
 * candidates (bench/README.md "Memory retrieval, issue 28's last two targets"). The process
 * decodes 40 rows instead of up to 300. It runs in the function `memories_by_words`
 * (`memoriesByWordsCall`) with its generic plan, which reads the terms' GIN index:
 * memories.ranked.test.ts.
 */
export function rankedByWords(
  userId: string,
  botId: string,
  scoped: string[],
  options: { pinned: number; limit: number; top: number; now: Date; finders?: string[] },
): SQL {
  const terms = scoped.join(' ');
  const finders = (options.finders ?? scoped).join(' ');
  return sql`with c as materialized (
    select c.id, c.kind, c.text, c.event_date, c.importance, c.updated_at, c.matched, cardinality(c.terms) as term_count
    from (select m.id, m.user_id, m.bot_id, m.kind, m.text, m.event_date, m.importance, m.updated_at, m.terms,
            array(select t from unnest(m.terms) t where t = any((select string_to_array(${terms}, ' '))::text[])) as matched
          from memories m where m.terms && string_to_array(${finders}, ' ') offset 0) c
    where c.user_id = ${userId} and c.bot_id = ${botId}
    order by cardinality(c.matched) desc, c.updated_at desc
    limit ${options.limit}
  ), n as (select count(*)::int as n, min(char_length(c.text))::int as shortest from c),
  df as (select t, count(*)::int as df from c, unnest(c.matched) t group by t),
  ranked as (
    select c.id, c.kind, c.text, c.event_date, c.importance, c.ms, c.term_count, x.dfs,
      row_number() over (order by
        coalesce(x.idf, 0) / (0.5 + 0.5 * (greatest(c.term_count, 1) / 8.0::float8)) / 10
        + 0.08 * (c.importance / 5.0::float8)
        + 0.05 * exp(least(700, greatest(-700, -(${options.now.getTime()}::float8 - c.ms) / 2592000000.0::float8)))
        desc, c.ms desc, c.id) as rn
    from (select c.*, floor(round(date_part('epoch', c.updated_at) * 1000000) / 1000) as ms from c) c, n, lateral (
      select array_agg(d.df order by u.o) as dfs,
        sum(ln(1 + (greatest(n.n * 4, 50) - d.df + 0.5::float8) / (d.df + 0.5::float8))) as idf
      from unnest(c.matched) with ordinality u(t, o) join df d on d.t = u.t) x
  )
  (select p.id, p.kind, p.text, p.event_date as "eventDate", p.importance,
      (extract(epoch from p.updated_at) * 1000)::float8 as "updatedAt",
      null::int[] as dfs, 0 as "termCount", null::int as n, null::int as rest, 'p' as src
    from memories p where p.user_id = ${userId} and p.bot_id = ${botId} and p.pinned
    order by p.importance desc, p.updated_at desc
    limit ${options.pinned})
  union all
  (select r.id, r.kind, r.text, r.event_date, r.importance, r.ms,
      r.dfs, r.term_count, (select n from n), (select case when n > ${options.top} then shortest end from n), 'c'
    from ranked r where r.rn <= ${options.top}
    order by r.rn)`;
}

/**
 * `rankedByWords` as its stored function runs it (migration 0028, `memories_by_words`): the same
 * statement, with its arguments in the order of the statement's parameters, under
 * `plan_cache_mode = force_generic_plan`. Prepared as it is, PostgreSQL planned it at every
 * execution — ≈ 0.6 ms of a send's PostgreSQL CPU — since its generic plan's estimate (`terms &&
 * $n` at the default 1 % of the table) stays above the custom plans' (bench/README.md "Memory
 * retrieval: the newest turn finds"); memories.ranked.test.ts checks the function's text is the
 * statement's.
 */
export function memoriesByWordsCall(
  userId: string,
  botId: string,
  scoped: string[],
  options: { pinned: number; limit: number; top: number; now: Date; finders?: string[] },
): SQL {
  const finders = options.finders ?? scoped;
  return sql`select * from memories_by_words(${scoped.join(' ')}, ${finders.join(' ')}, ${userId}, ${botId}, ${options.limit},
    ${options.now.getTime()}, ${userId}, ${botId}, ${options.pinned}, ${options.top}, ${options.top})`;
}

/** The prompt's reads ranked by words (`rankedByWords`, run by `memoriesByWordsCall`), as the ranking takes them. */
export async function promptCandidatesByWords(
  db: Database,
  userId: string,
  botId: string,
  scoped: string[],
  options: { pinned: number; limit: number; top: number; now: Date; finders?: string[] },
): Promise<{
  pinned: PromptMemory[];
  ranked: (PromptMemory & { dfs: number[]; termCount: number })[];
  /** How many candidates the search found (`ranked` are the best `top` of them). */
  count: number;
  /**
   * The fewest characters of any candidate's text — at most those of the shortest not in
   * `ranked` — when some are not in it; null when all are.
   */
  restChars: number | null;
}> {
  const rows = rowsOf<Record<string, unknown>>(
    await executePrepared(db, 'memories-by-words', memoriesByWordsCall(userId, botId, scoped, options)),
  );
  const pinned: PromptMemory[] = [];
  const ranked: (PromptMemory & { dfs: number[]; termCount: number })[] = [];
  let count = 0;
  let restChars: number | null = null;
  for (const raw of rows) {
    if (raw.src === 'p') {
      pinned.push(promptMemoryFromRaw(raw));
      continue;
    }
    const dfs = raw.dfs;
    ranked.push({
      ...promptMemoryFromRaw(raw),
      dfs: ((dfs as (number | string)[] | null) ?? []).map(Number),
      termCount: Number(raw.termCount),
    });
    count = Number(raw.n);
    restChars = raw.rest === null || raw.rest === undefined ? null : Number(raw.rest);
  }
  return { pinned: pinned.sort(byPinnedOrder), ranked, count, restChars };
}

/** The pair's pinned memories, most important first. */
export async function pinnedMemories(
  db: Database,
  userId: string,
  botId: string,
  limit: number,
): Promise<ShownMemory[]> {
  // `pinned` as it stands, not `= $n`: the partial index on pinned rows serves generic plans too.
  return db
    .select(shown)
    .from(memories)
    .where(and(pair(userId, botId), sql`${memories.pinned}`))
    .orderBy(desc(memories.importance), desc(memories.updatedAt))
    .limit(limit);
}

/** The pair's newest memories (the recency candidates of a prompt, the journal's day). */
export async function recentMemories(
  db: Database,
  userId: string,
  botId: string,
  limit: number,
  options: { since?: Date; withEmbedding?: boolean } = {},
): Promise<(ShownMemory & { embedding: number[] | null })[]> {
  const rows = await db
    .select({
      ...shown,
      embedding: options.withEmbedding
        ? sql<
            string | null
          >`encode(coalesce(${memories.vector}, memories_float4_bytes(${memories.embedding})), 'base64')`
        : sql<null>`null`,
    })
    .from(memories)
    .where(and(pair(userId, botId), options.since ? gt(memories.updatedAt, options.since) : undefined))
    .orderBy(desc(memories.updatedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, embedding: r.embedding ? decodeFloat4Vector(r.embedding) : null }));
}

export async function countPairMemories(db: Database, userId: string, botId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memories)
    .where(pair(userId, botId));
  return Number(row?.n ?? 0);
}

/** Forgets one memory with its history and citations (cascade); false when it is not the user's. */
export async function deleteOwnMemory(db: Database, userId: string, id: string): Promise<boolean> {
  return (await deleteRows(db, memories, and(eq(memories.id, id), eq(memories.userId, userId)))) > 0;
}

/** Forgets everything the character remembers of the user; answers how many memories. */
export async function deletePairMemories(db: Database, userId: string, botId: string): Promise<number> {
  return db.transaction(async (tx) => {
    // Her journal is written from these memories and retells them: it goes with them.
    await tx.delete(journalEntries).where(and(eq(journalEntries.userId, userId), eq(journalEntries.botId, botId)));
    return deleteRows(tx as unknown as Database, memories, pair(userId, botId));
  });
}

/** Every memory of the user, with every character (delete all data). */
export async function deleteUserMemories(db: Database, userId: string): Promise<void> {
  await db.delete(journalEntries).where(eq(journalEntries.userId, userId));
  await db.delete(memorySettings).where(eq(memorySettings.userId, userId));
  await db.delete(memories).where(eq(memories.userId, userId));
}

export async function listRevisions(db: Database, memoryId: string): Promise<MemoryRevisionRow[]> {
  return db
    .select()
    .from(memoryRevisions)
    .where(eq(memoryRevisions.memoryId, memoryId))
    .orderBy(desc(memoryRevisions.createdAt), desc(memoryRevisions.id));
}

/** Everything the user's memories hold (download my data): memories with their revisions, journal entries. */
export async function exportUserMemories(db: Database, userId: string) {
  const rows = await db
    .select(shown)
    .from(memories)
    .where(eq(memories.userId, userId))
    .orderBy(asc(memories.createdAt));
  const revisions = rows.length
    ? await db
        .select()
        .from(memoryRevisions)
        .where(
          inArray(
            memoryRevisions.memoryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(memoryRevisions.createdAt))
    : [];
  const journal = await db
    .select()
    .from(journalEntries)
    .where(eq(journalEntries.userId, userId))
    .orderBy(asc(journalEntries.day));
  return { memories: rows, revisions, journal };
}

// Citations ---------------------------------------------------------------------------

export async function insertCitations(
  db: Database,
  messageId: string,
  items: { memoryId: string; position: number; drewOn: boolean }[],
): Promise<void> {
  if (!items.length) return;
  // A memory forgotten between the prompt and the save is not cited (its row is gone).
  await db.execute(sql`
    insert into message_memories (message_id, memory_id, position, drew_on)
    select ${messageId}::uuid, m.id, v.position, v.drew_on
    from (values ${sql.join(
      items.map((i) => sql`(${i.memoryId}::uuid, ${i.position}::smallint, ${i.drewOn}::boolean)`),
      sql`, `,
    )}) as v(memory_id, position, drew_on)
    join memories m on m.id = v.memory_id
    on conflict do nothing`);
}

/**
 * The citations of these messages that are `viewerId`'s own memories: memory ids in prompt
 * order, and those drawn on. A scene's member reads replies shaped by the owner's memories:
 * those are the owner's to see, never the member's (not even their ids or number).
 */
export async function citationsOf(
  db: Database,
  messageIds: string[],
  viewerId: string,
): Promise<Map<string, { inPrompt: string[]; drewOn: string[] }>> {
  const out = new Map<string, { inPrompt: string[]; drewOn: string[] }>();
  if (!messageIds.length) return out;
  const rows = await db
    .select({
      messageId: messageMemories.messageId,
      memoryId: messageMemories.memoryId,
      drewOn: messageMemories.drewOn,
    })
    .from(messageMemories)
    .innerJoin(memories, eq(memories.id, messageMemories.memoryId))
    .where(and(inArray(messageMemories.messageId, messageIds), eq(memories.userId, viewerId)))
    .orderBy(asc(messageMemories.messageId), asc(messageMemories.position));
  for (const row of rows) {
    let entry = out.get(row.messageId);
    if (!entry) out.set(row.messageId, (entry = { inPrompt: [], drewOn: [] }));
    entry.inPrompt.push(row.memoryId);
    if (row.drewOn) entry.drewOn.push(row.memoryId);
  }
  return out;
}

// Extraction (a read model of chats and messages) ----------------------------------------

/**
 * What follows a reply in the chat: whether the chat may be remembered and whether the pair
 * keeps a journal, in one statement; null when the chat is gone.
 */
export async function replyFollowUp(
  db: Database,
  chatId: string,
  pair: { userId: string; botId: string },
): Promise<{ remember: boolean; journal: boolean } | null> {
  const [row] = await db
    .select({
      remember: chats.remember,
      journal: sql<boolean>`coalesce((select ${memorySettings.journal} from ${memorySettings}
        where ${memorySettings.userId} = ${pair.userId}::uuid and ${memorySettings.botId} = ${pair.botId}::uuid), false)`,
    })
    .from(chats)
    .where(eq(chats.id, chatId));
  if (!row) return null;
  return { remember: row.remember, journal: row.journal === true || (row.journal as unknown) === 't' };
}

/** The pair's chats that may be remembered, with how far each was read. */
export async function rememberedChats(
  db: Database,
  userId: string,
  botId: string,
): Promise<{ chatId: string; throughSeq: number }[]> {
  const rows = await db
    .select({ chatId: chats.id, throughSeq: sql<number>`coalesce(${memoryExtractions.throughSeq}, 0)` })
    .from(chats)
    .leftJoin(memoryExtractions, eq(memoryExtractions.chatId, chats.id))
    .where(and(eq(chats.userId, userId), eq(chats.botId, botId), eq(chats.remember, true)));
  return rows.map((r) => ({ chatId: r.chatId, throughSeq: Number(r.throughSeq) }));
}

export interface ExtractionMessage {
  id: string;
  seq: number;
  role: 'user' | 'bot' | 'system';
  text: string;
  createdAt: Date;
}

/** The shown text messages of a chat after `afterSeq`, oldest first, at most `limit`. */
export async function messagesAfter(
  db: Database,
  chatId: string,
  afterSeq: number,
  limit: number,
): Promise<ExtractionMessage[]> {
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      text: messages.text,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        gt(messages.seq, afterSeq),
        eq(messages.selected, true),
        eq(messages.kind, 1),
        sql`${messages.state} in ('done', 'stopped')`,
        sql`${messages.notice} is null`,
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(limit);
}

/** Moves a chat's extraction cursor forward (never back). */
export async function advanceCursor(db: Database, chatId: string, throughSeq: number): Promise<void> {
  await db
    .insert(memoryExtractions)
    .values({ chatId, throughSeq })
    .onConflictDoUpdate({
      target: memoryExtractions.chatId,
      set: { throughSeq: sql`greatest(${memoryExtractions.throughSeq}, excluded.through_seq)`, updatedAt: sql`now()` },
    });
}

/** Chats whose summary (the short-term layer) was not yet copied into memories. */
export async function summariesToImport(
  db: Database,
  limit: number,
): Promise<{ chatId: string; userId: string; botId: string; memory: string; updatedAt: Date | null }[]> {
  return db
    .select({
      chatId: chats.id,
      userId: chats.userId,
      botId: chats.botId,
      memory: chats.memory,
      updatedAt: chats.memoryUpdatedAt,
    })
    .from(chats)
    .leftJoin(memoryExtractions, eq(memoryExtractions.chatId, chats.id))
    .where(and(sql`${chats.memory} <> ''`, sql`coalesce(${memoryExtractions.summaryImported}, false) = false`))
    .limit(limit);
}

export async function markSummaryImported(db: Database, chatId: string): Promise<void> {
  await db
    .insert(memoryExtractions)
    .values({ chatId, summaryImported: true })
    .onConflictDoUpdate({ target: memoryExtractions.chatId, set: { summaryImported: true } });
}

/** True when the user has a chat or a memory with this character (their memory page stays readable). */
export async function hasPairData(db: Database, userId: string, botId: string): Promise<boolean> {
  return (
    (await hasRow(db, chats, and(eq(chats.userId, userId), eq(chats.botId, botId)))) ||
    (await hasRow(db, memories, pair(userId, botId)))
  );
}

// Settings and journal ------------------------------------------------------------------

export async function journalEnabled(db: Database, userId: string, botId: string): Promise<boolean> {
  const [row] = await db
    .select({ journal: memorySettings.journal })
    .from(memorySettings)
    .where(and(eq(memorySettings.userId, userId), eq(memorySettings.botId, botId)));
  return row?.journal ?? false;
}

export async function setJournal(db: Database, userId: string, botId: string, enabled: boolean): Promise<void> {
  await db
    .insert(memorySettings)
    .values({ userId, botId, journal: enabled })
    .onConflictDoUpdate({
      target: [memorySettings.userId, memorySettings.botId],
      set: { journal: enabled, updatedAt: sql`now()` },
    });
}

export async function listJournal(
  db: Database,
  userId: string,
  botId: string,
  size: number,
  beforeDay?: string,
): Promise<JournalRow[]> {
  return db
    .select()
    .from(journalEntries)
    .where(
      and(
        eq(journalEntries.userId, userId),
        eq(journalEntries.botId, botId),
        beforeDay ? lt(journalEntries.day, beforeDay) : undefined,
      ),
    )
    .orderBy(desc(journalEntries.day))
    .limit(size);
}

export async function hasJournalEntry(db: Database, userId: string, botId: string, day: string): Promise<boolean> {
  return hasRow(
    db,
    journalEntries,
    and(eq(journalEntries.userId, userId), eq(journalEntries.botId, botId), eq(journalEntries.day, day)),
  );
}

/** Writes the day's entry once (a second writer's is dropped). */
export async function insertJournalEntry(
  db: Database,
  values: Omit<typeof journalEntries.$inferInsert, 'id' | 'createdAt'>,
): Promise<JournalRow | null> {
  return insertIfAbsent(db, journalEntries, values);
}

/** The user's messages with the character on `day` (UTC): the day had a conversation. */
export async function conversedOn(db: Database, userId: string, botId: string, day: string): Promise<boolean> {
  const start = new Date(`${day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  return hasRow(
    db,
    messages,
    and(
      eq(chats.userId, userId),
      eq(chats.botId, botId),
      eq(messages.role, 'user'),
      gte(messages.createdAt, start),
      lt(messages.createdAt, end),
    ),
    { table: chats, on: eq(chats.id, messages.chatId) },
  );
}

/**
 * Messages deleted for good (a chat's "delete", issue 29): the user's memories and their
 * revisions drawn from them lose those sources; the memories themselves stay (the user
 * forgets them on the memory page). One statement per table, through the arrays' overlap.
 */
export async function dropMessageSources(db: Database, userId: string, messageIds: string[]): Promise<number> {
  if (messageIds.length === 0) return 0;
  const ids = sql`array[${sql.join(
    messageIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const without = (column: SQL) => sql`array(select s from unnest(${column}) as s where not (s = any(${ids})))`;
  const changed = await db
    .update(memories)
    .set({ sourceMessageIds: without(sql`${memories.sourceMessageIds}`) })
    .where(and(eq(memories.userId, userId), sql`${memories.sourceMessageIds} && ${ids}`))
    .returning({ id: memories.id });
  if (changed.length > 0)
    await db
      .update(memoryRevisions)
      .set({ sourceMessageIds: without(sql`${memoryRevisions.sourceMessageIds}`) })
      .where(
        and(
          inArray(
            memoryRevisions.memoryId,
            changed.map((row) => row.id),
          ),
          sql`${memoryRevisions.sourceMessageIds} && ${ids}`,
        ),
      );
  return changed.length;
}
