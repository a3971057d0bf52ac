import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { BotFilterTag } from '@reverie/shared';
import { rowsOf, type Database } from '../../db/client.js';
import { deleteRows, hasRow, insertRow, updateAny, updateRow } from '../../db/rows.js';
import { botPictures, bots, chats, LISTED, STYLE, users, type BotTranslations } from '../../db/schema.js';
import type { SearchTerms } from './search-terms.js';

export type BotRow = typeof bots.$inferSelect;
export type { BotTranslations };
export type NewBotRow = typeof bots.$inferInsert;
export type BotPictureRow = typeof botPictures.$inferSelect;

/** Seen in the catalogue by everyone: public and approved. */
const isListed = () => and(eq(bots.visibility, 'public'), eq(bots.reviewState, 'approved'));

/** What a viewer may see: listed characters, and their own (not deleted; a listed one never is). */
function visibleTo(viewerId: string | null): SQL {
  return viewerId ? or(isListed(), and(eq(bots.authorId, viewerId), isNull(bots.deletedAt)))! : isListed()!;
}

/** A public character by slug, for pages anyone may see (and their link previews). */
export async function findPublicBotBySlug(db: Database, slug: string): Promise<BotRow | null> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.slug, slug), isListed()))
    .limit(1);
  return row ?? null;
}

/** The character `match` finds if the viewer may see it (listed, or the viewer's own). */
async function findVisibleBot(db: Database, match: SQL, viewerId: string | null): Promise<BotRow | null> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(match, visibleTo(viewerId)))
    .limit(1);
  return row ?? null;
}

/** A character by slug if the viewer may see it (listed, or the viewer's own). */
export function findVisibleBotBySlug(db: Database, slug: string, viewerId: string | null): Promise<BotRow | null> {
  return findVisibleBot(db, eq(bots.slug, slug), viewerId);
}

/** A character by id if the viewer may see it (listed, or the viewer's own). */
export function findVisibleBotById(db: Database, id: string, viewerId: string | null): Promise<BotRow | null> {
  return findVisibleBot(db, eq(bots.id, id), viewerId);
}

export async function findBotById(db: Database, id: string): Promise<BotRow | null> {
  const [row] = await db.select().from(bots).where(eq(bots.id, id)).limit(1);
  return row ?? null;
}

/** At most 5 distinct words of a search, in its order. */
export function searchWords(search: string | undefined): string[] {
  return [...new Set((search ?? '').toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 5);
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A row plus its exact `created_at` (microseconds) for the keyset cursor. */
export type CatalogueRow = BotRow & { cursorAt: string };

/**
 * The catalogue's filters: official and custom select the source, anime and realistic the
 * style; within a group they combine with OR, across groups with AND. Literal SQL (the values
 * are a closed set) so the partial indexes' predicates match.
 */
function catalogueFilters(tags: BotFilterTag[]): { filters: SQL[]; bySource: boolean } {
  const filters: SQL[] = [];
  const official = tags.includes('official');
  const custom = tags.includes('custom');
  if (official !== custom) filters.push(sql.raw(`"bots"."is_official" = ${official ? 'true' : 'false'}`));
  const styles = tags.filter((t): t is 'anime' | 'realistic' => t === 'anime' || t === 'realistic');
  if (styles.length === 1) filters.push(sql.raw(STYLE(styles[0]!)));
  if (styles.length > 1) filters.push(sql.raw(`(${styles.map(STYLE).join(' or ')})`));
  return { filters, bySource: official !== custom };
}

/** A signed-in viewer's own characters that are not listed (the second branch of a UNION). */
const ownUnlisted = (viewerId: string) =>
  and(eq(bots.authorId, viewerId), eq(bots.kind, 'character'), isNull(bots.deletedAt), sql.raw(`not (${LISTED})`))!;

/**
 * One page of the catalogue, newest first, keyset-paginated on (created_at, id) so that
 * characters inserted between page loads never shift later pages; with the filters of
 * `catalogueFilters`. A signed-in viewer also sees their own unlisted characters (a second,
 * author-indexed branch of a UNION). A search is `searchCatalogue`'s.
 */
export async function listCatalogue(
  db: Database,
  options: {
    viewerId: string | null;
    tags: BotFilterTag[];
    limit: number;
    after: { createdAt: string; id: string } | null;
  },
): Promise<CatalogueRow[]> {
  const { filters, bySource } = catalogueFilters(options.tags);
  if (options.after) {
    filters.push(
      sql`(${bots.createdAt}, ${bots.id}) < (${options.after.createdAt}::timestamptz, ${options.after.id}::uuid)`,
    );
  }
  const cursorAt = sql<string>`to_char(${bots.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
    'cursor_at',
  );
  const branch = (visibility: SQL) =>
    db
      .select({ ...getTableColumns(bots), cursorAt })
      .from(bots)
      .where(and(visibility, ...filters))
      // With a source filter is_official is constant; ordering by it too leads the planner
      // to the (is_official, created_at, id) index even for rare combinations.
      .orderBy(...(bySource ? [desc(bots.isOfficial)] : []), desc(bots.createdAt), desc(bots.id))
      .limit(options.limit);
  if (!options.viewerId) return branch(sql.raw(LISTED));
  const rows = await unionAll(branch(sql.raw(LISTED)), branch(ownUnlisted(options.viewerId)));
  return rows
    .sort((a, b) => (a.cursorAt === b.cursorAt ? (a.id < b.id ? 1 : -1) : a.cursorAt < b.cursorAt ? 1 : -1))
    .slice(0, options.limit);
}

// ---------------------------------------------------------------------------------------
// Search (docs/characters.md "Search"): the generated `search_vector` (migration 0015) holds
// the name and tags as written, and the tags, description and greeting stemmed in English,
// Spanish, German and Russian (a translation when the character has one, else its own text)
// and as Han grams for Chinese.
// ---------------------------------------------------------------------------------------

/** The text search configurations a search word is looked up in (the vector holds them all). */
const SEARCH_CONFIGS = ['simple', 'english', 'spanish', 'german', 'russian'] as const;
type SearchConfig = (typeof SEARCH_CONFIGS)[number];
const regconfig = (config: SearchConfig) => sql.raw(`'${config}'::regconfig`);

/**
 * What the database knows of a search word: a stop word of the reader's language, its lexemes
 * in every configuration, whether the dictionary of the catalogue's words holds it, and — only
 * when asked for (`searchWordCorrections`) — the dictionary's words closest to it.
 */
export interface SearchWordHint {
  stop: boolean;
  /** The word as the vector holds it: as written (`simple`) and stemmed in each language, distinct. */
  lexemes: string[];
  /** `bot_search_words` holds the word as written: nothing to correct. */
  known: boolean;
  /**
   * Up to 2 words of `bot_search_words` by trigram distance (similarity ≥ 0.3), closest first:
   * for an unknown word of 4 letters or more, once corrections were looked up; else none.
   */
  near: string[];
  /** The lexemes of `near`, distinct. */
  nearLexemes: string[];
}

const textArray = (words: string[]) =>
  sql`array[${sql.join(
    words.map((word) => sql`${word}::text`),
    sql`, `,
  )}]`;
const ALL_CONFIGS = sql.raw(`array[${SEARCH_CONFIGS.map((c) => `'${c}'`).join(', ')}]::regconfig[]`);

/**
 * One query for every word of a search: stop word in `config`? its lexemes, known to the
 * dictionary? (a primary-key look-up). No trigram search: that costs a walk of the dictionary's
 * trigram index per word, and is needed only when a search finds nothing
 * (`searchWordCorrections`).
 */
export async function searchWordHints(
  db: Database,
  words: string[],
  config: SearchConfig,
): Promise<Map<string, SearchWordHint>> {
  if (words.length === 0) return new Map();
  const result = await db.execute(sql`
    select q.w as word,
      numnode(plainto_tsquery(${regconfig(config)}, q.w)) = 0 as stop,
      array(select distinct l from unnest(${ALL_CONFIGS}) as c, unnest(tsvector_to_array(to_tsvector(c, q.w))) as l) as lexemes,
      exists (select 1 from bot_search_words as b where b.word = q.w) as known
    from unnest(${textArray(words)}) as q(w)`);
  return new Map(
    rowsOf<{ word: string; stop: boolean; lexemes: string[] | null; known: boolean }>(result).map((row) => [
      row.word,
      { stop: Boolean(row.stop), lexemes: row.lexemes ?? [], known: Boolean(row.known), near: [], nearLexemes: [] },
    ]),
  );
}

/** The words a search could correct: not stop words, unknown to the dictionary, 4 letters or more. */
export const correctableWords = (hints: Map<string, SearchWordHint>) =>
  [...hints].filter(([word, hint]) => !hint.stop && !hint.known && [...word].length >= 4).map(([word]) => word);

/**
 * The closest known words of each correctable word of `hints` (trigram distance through
 * `bot_search_words_trgm_idx`, similarity ≥ 0.3, two at most) and their lexemes, written into
 * `hints`. Answers whether any word got a correction.
 */
export async function searchWordCorrections(db: Database, hints: Map<string, SearchWordHint>): Promise<boolean> {
  const words = correctableWords(hints);
  if (words.length === 0) return false;
  const result = await db.execute(sql`
    select q.w as word, n.near,
      array(select distinct l from unnest(n.near) as nw, unnest(${ALL_CONFIGS}) as c,
            unnest(tsvector_to_array(to_tsvector(c, nw))) as l) as near_lexemes
    from unnest(${textArray(words)}) as q(w)
    cross join lateral (
      select array(select b.word from bot_search_words as b
                   where b.word % q.w order by b.word <-> q.w limit 2) as near
    ) as n`);
  let found = false;
  for (const row of rowsOf<{ word: string; near: string[] | null; near_lexemes: string[] | null }>(result)) {
    const hint = hints.get(row.word);
    if (!hint) continue;
    hint.near = row.near ?? [];
    hint.nearLexemes = row.near_lexemes ?? [];
    if (hint.near.length > 0) found = true;
  }
  return found;
}

/** A lexeme quoted for `to_tsquery` (quotes and backslashes escaped). */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery of a search, written from the words' lexemes (each once, whatever the number of
 * configurations that give it): every word must match (AND), as any of its lexemes (as written,
 * stemmed in each language); with `corrections`, a word the dictionary does not know also as
 * its closest known words' lexemes (a typo: "astronuat" → "astronaut"); with `prefix`, the last
 * word also as a prefix (searching while typing). A stop word of the reader's language is left
 * out unless the search has nothing else. Chinese: all the Han grams (`hanGrams`).
 */
export function searchQuery(
  terms: SearchTerms,
  hints: Map<string, SearchWordHint>,
  options: { corrections: boolean; prefix: boolean },
): SQL | null {
  const kept = terms.words.filter((word) => !hints.get(word)?.stop);
  const words = kept.length > 0 || terms.hanGrams.length > 0 ? kept : terms.words;
  const parts: string[] = [];
  for (const word of words) {
    const hint = hints.get(word);
    const lexemes = new Set(hint?.lexemes.length ? hint.lexemes : [word]);
    if (options.corrections && hint && !hint.known) for (const l of hint.nearLexemes) lexemes.add(l);
    const choices = [...lexemes].map(quoteLexeme);
    if (options.prefix && word === terms.words.at(-1) && word.length >= 2) choices.push(`${quoteLexeme(word)}:*`);
    parts.push(`(${choices.join(' | ')})`);
  }
  if (terms.hanGrams.length > 0) parts.push(terms.hanGrams.map(quoteLexeme).join(' & '));
  return parts.length > 0 ? sql`to_tsquery('simple'::regconfig, ${parts.join(' & ')}::text)` : null;
}

/** How many matches of a search are ranked at most (docs/characters.md "Search"). */
export const SEARCH_CANDIDATES = 1000;

/** A search result and its rank. */
export type SearchRow = BotRow & { rank: number };

/**
 * One page of a catalogue search: the characters whose `search_vector` matches `query`,
 * best first by `rankBy` (ts_rank: the name weighs most, then tags, description, greeting;
 * the query without its prefix, so that a whole word ranks above a word it begins), newest
 * first among equals, with the catalogue's filters. Listed characters come from the partial
 * GIN index `bots_search_idx`; a signed-in viewer's own unlisted ones from their author index.
 */
export async function searchCatalogue(
  db: Database,
  options: {
    viewerId: string | null;
    tags: BotFilterTag[];
    query: SQL;
    rankBy: SQL;
    offset: number;
    limit: number;
  },
): Promise<SearchRow[]> {
  const { filters } = catalogueFilters(options.tags);
  const vector = sql`"bots"."search_vector"`;
  // A style filter is also asked of the index: a character tagged `anime` has the lexeme
  // 'anime' (its tags as written), so the index gives only the matches that can pass the
  // filter (which stays, exact) instead of every match for the heap to drop. The official
  // filter has its own partial index (`bots_search_official_idx`).
  const styles = options.tags.filter((t) => t === 'anime' || t === 'realistic');
  if (styles.length === 1) filters.push(sql.raw(`"bots"."search_vector" @@ '${styles[0]}'::tsquery`));
  const rank = sql<number>`ts_rank(${vector}, ${options.rankBy})`.as('rank');
  // The matches ranked are the first SEARCH_CANDIDATES the index gives (no order): a word that
  // thousands of characters share costs a bounded ranking, not one of every match.
  const branch = (visibility: SQL, offset: number, limit: number) => {
    const matches = db
      .select({ ...getTableColumns(bots), rank })
      .from(bots)
      .where(and(visibility, sql`${vector} @@ (${options.query})`, ...filters))
      .limit(SEARCH_CANDIDATES)
      .as('matches');
    return db
      .select()
      .from(matches)
      .orderBy(desc(matches.rank), desc(matches.createdAt), desc(matches.id))
      .limit(limit)
      .offset(offset);
  };
  if (!options.viewerId) return branch(sql.raw(LISTED), options.offset, options.limit);
  const deep = options.offset + options.limit;
  const rows = await unionAll(branch(sql.raw(LISTED), 0, deep), branch(ownUnlisted(options.viewerId), 0, deep));
  return rows
    .map((row) => ({ ...row, rank: Number(row.rank) }))
    .sort(
      (a, b) =>
        b.rank - a.rank || b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    )
    .slice(options.offset, deep);
}

/** The user's own characters or personas (not deleted), newest first. */
export async function listBotsByAuthor(
  db: Database,
  authorId: string,
  kind?: 'character' | 'persona',
): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.authorId, authorId), isNull(bots.deletedAt), kind ? eq(bots.kind, kind) : undefined))
    .orderBy(desc(bots.createdAt), desc(bots.id))
    .limit(200);
}

/**
 * How many chats each character has (everyone's) and how many people other than its author
 * chat with it (My characters). A read of the chats table: the counts belong to the character.
 */
export async function countChatsOfBots(
  db: Database,
  authorId: string,
  botIds: string[],
): Promise<Map<string, { chats: number; people: number }>> {
  const counts = new Map<string, { chats: number; people: number }>();
  if (!botIds.length) return counts;
  const rows = await db
    .select({
      botId: chats.botId,
      chats: sql<number>`count(*)::int`,
      people: sql<number>`(count(distinct ${chats.userId}) filter (where ${chats.userId} <> ${authorId}))::int`,
    })
    .from(chats)
    .where(inArray(chats.botId, botIds))
    .groupBy(chats.botId);
  for (const row of rows) counts.set(row.botId, { chats: Number(row.chats), people: Number(row.people) });
  return counts;
}

/**
 * Listed characters ranked by how many people chatted with them since `since` (a chat active
 * then: its `updated_at` moves with every message), most first; ties by the newest chat. Read
 * once per cache period (BotsService.popularThisWeek), not per request.
 */
export async function listPopularSince(
  db: Database,
  since: Date,
  limit: number,
): Promise<{ id: string; people: number }[]> {
  const people = sql<number>`count(distinct ${chats.userId})::int`;
  const rows = await db
    .select({ id: bots.id, people })
    .from(chats)
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(and(sql`${chats.updatedAt} >= ${since.toISOString()}::timestamptz`, sql.raw(LISTED)))
    .groupBy(bots.id)
    .orderBy(desc(people), desc(sql`max(${chats.updatedAt})`))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, people: Number(row.people) }));
}

/**
 * A creator's page: their name and listed characters (newest first), unless they hid it — then
 * null, as for an unknown user.
 */
export async function findCreatorPage(
  db: Database,
  userId: string,
  limit: number,
): Promise<{ name: string; rows: BotRow[] } | null> {
  const [user] = await db
    .select({ name: users.name, hidden: users.creatorPageHidden, banned: users.bannedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || user.hidden || user.banned) return null;
  const rows = await db
    .select()
    .from(bots)
    .where(and(eq(bots.authorId, userId), isListed(), eq(bots.kind, 'character')))
    .orderBy(desc(bots.createdAt), desc(bots.id))
    .limit(limit);
  return { name: user.name, rows };
}

/** Listed characters by id (in no particular order): a cached ranking's rows, read fresh. */
export async function findListedBotsByIds(db: Database, ids: string[]): Promise<BotRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(bots)
    .where(and(inArray(bots.id, ids), isListed()));
}

/**
 * The author deletes a character: it stays for the chats others have with it (their history),
 * private — so out of the catalogue, the review queue and every page — and marked deleted, so
 * out of its author's lists too. Answers whether a row of the author's was deleted.
 */
export async function softDeleteBot(db: Database, id: string, authorId: string): Promise<boolean> {
  return updateAny(db, bots, and(eq(bots.id, id), eq(bots.authorId, authorId), isNull(bots.deletedAt)), {
    deletedAt: new Date(),
    visibility: 'private',
    updatedAt: new Date(),
  });
}

/** A deleted persona leaves the chats that used it: they go on with the profile's name. */
export async function clearChatPersona(db: Database, personaId: string): Promise<void> {
  await db.update(chats).set({ personaId: null }).where(eq(chats.personaId, personaId));
}

export async function insertBot(db: Database, values: NewBotRow): Promise<BotRow> {
  return insertRow(db, bots, values);
}

export async function updateBotMedia(
  db: Database,
  id: string,
  avatarKey: string | null,
  avatarUrl: string | null,
): Promise<void> {
  await db.update(bots).set({ avatarKey, avatarUrl, updatedAt: new Date() }).where(eq(bots.id, id));
}

export async function slugExists(db: Database, slug: string): Promise<boolean> {
  return hasRow(db, bots, eq(bots.slug, slug));
}

/** A character's pictures in order: all of them, or only its public (page) or private (chat) ones. */
export async function listGallery(
  db: Database,
  botId: string,
  visibility?: BotPictureRow['visibility'],
): Promise<BotPictureRow[]> {
  return db
    .select()
    .from(botPictures)
    .where(and(eq(botPictures.botId, botId), visibility ? eq(botPictures.visibility, visibility) : undefined))
    .orderBy(asc(botPictures.position), asc(botPictures.createdAt));
}

/** The galleries of several characters in one query (a page of a list), each in order. */
export async function listGalleries(db: Database, botIds: string[]): Promise<Map<string, BotPictureRow[]>> {
  const galleries = new Map<string, BotPictureRow[]>(botIds.map((id) => [id, []]));
  if (!botIds.length) return galleries;
  const rows = await db
    .select()
    .from(botPictures)
    .where(inArray(botPictures.botId, [...new Set(botIds)]))
    .orderBy(asc(botPictures.botId), asc(botPictures.position));
  for (const row of rows) galleries.get(row.botId)?.push(row);
  return galleries;
}

/**
 * A character and whether one of its pictures (its avatar or a gallery picture, by key) was
 * judged explicit and is private (sent in chat only; the avatar never is), in one query (the
 * media route asks it on every picture request).
 */
export async function findBotWithPicture(
  db: Database,
  id: string,
  key: string,
): Promise<{ bot: BotRow; explicit: boolean; private: boolean } | null> {
  const picture = (column: SQL) =>
    sql`(select ${column} from ${botPictures} where ${botPictures.botId} = ${bots.id} and ${botPictures.mediaKey} = ${key} limit 1)`;
  const [row] = await db
    .select({
      bot: bots,
      explicit: sql<boolean>`case when ${bots.avatarKey} = ${key} then ${bots.avatarExplicit}
        else coalesce(${picture(sql`${botPictures.explicit}`)}, false) end`,
      private: sql<boolean>`case when ${bots.avatarKey} = ${key} then false
        else coalesce(${picture(sql`${botPictures.visibility} = 'private'`)}, false) end`,
    })
    .from(bots)
    .where(eq(bots.id, id))
    .limit(1);
  return row ? { bot: row.bot, explicit: Boolean(row.explicit), private: Boolean(row.private) } : null;
}

/** Adds pictures to a character, in this order after `firstPosition`, all public or all private. */
export async function insertGalleryPictures(
  db: Database,
  botId: string,
  keys: string[],
  visibility: BotPictureRow['visibility'] = 'public',
  firstPosition = 0,
): Promise<void> {
  if (!keys.length) return;
  await db
    .insert(botPictures)
    .values(keys.map((mediaKey, i) => ({ botId, mediaKey, position: firstPosition + i, visibility })));
}

export async function findBotsBySlugs(db: Database, slugs: string[]): Promise<BotRow[]> {
  if (!slugs.length) return [];
  return db.select().from(bots).where(inArray(bots.slug, slugs));
}

/** A page (by id) of user-made characters that have this voice: the texts their sex is read from. */
export async function listAuthoredCharactersWithVoice(
  db: Database,
  voice: string,
  afterId: string | null,
  limit: number,
): Promise<{ id: string; description: string; greeting: string; scenario: string; personalityText: string }[]> {
  return db
    .select({
      id: bots.id,
      description: bots.description,
      greeting: bots.greeting,
      scenario: bots.scenario,
      personalityText: bots.personalityText,
    })
    .from(bots)
    .where(
      and(
        isNotNull(bots.authorId),
        eq(bots.kind, 'character'),
        eq(bots.voice, voice),
        afterId ? gt(bots.id, afterId) : undefined,
      ),
    )
    .orderBy(asc(bots.id))
    .limit(limit);
}

export async function setBotVoice(db: Database, id: string, voice: string): Promise<void> {
  await db.update(bots).set({ voice }).where(eq(bots.id, id));
}

// ---------------------------------------------------------------------------------------
// The admin console's reads and writes (bots.manage.ts). `db` may be a transaction.
// ---------------------------------------------------------------------------------------

/** Official characters, or every public character, matching a search; newest first. */
export async function listManagedBots(
  db: Database,
  options: { scope: 'official' | 'public'; search?: string; offset: number; limit: number },
): Promise<{ rows: BotRow[]; total: number }> {
  const filters: SQL[] = [eq(bots.kind, 'character')];
  if (options.scope === 'official') filters.push(eq(bots.isOfficial, true));
  else filters.push(eq(bots.visibility, 'public'));
  for (const word of searchWords(options.search)) {
    const pattern = `%${escapeLike(word)}%`;
    filters.push(
      sql`(${bots.name} ilike ${pattern} escape '\\' or ${bots.slug} ilike ${pattern} escape '\\' or exists (select 1 from unnest(${bots.tags}) as tag where tag ilike ${pattern} escape '\\'))`,
    );
  }
  const where = and(...filters);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(bots)
      .where(where)
      .orderBy(desc(bots.createdAt), desc(bots.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(bots)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Public custom characters waiting for a review, oldest first. */
const isPendingReview = () =>
  and(
    eq(bots.kind, 'character'),
    eq(bots.visibility, 'public'),
    eq(bots.isOfficial, false),
    eq(bots.reviewState, 'pending'),
  );

export async function listPendingReview(db: Database, limit: number): Promise<BotRow[]> {
  return db.select().from(bots).where(isPendingReview()).orderBy(asc(bots.createdAt), asc(bots.id)).limit(limit);
}

export async function countPendingReview(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(bots)
    .where(isPendingReview());
  return row?.count ?? 0;
}

/** Locks a character's row for an update in this transaction. */
export async function findBotByIdForUpdate(db: Database, id: string): Promise<BotRow | null> {
  const [row] = await db.select().from(bots).where(eq(bots.id, id)).limit(1).for('update');
  return row ?? null;
}

export async function updateBot(db: Database, id: string, values: Partial<NewBotRow>): Promise<BotRow> {
  return (await updateRow(db, bots, eq(bots.id, id), { ...values, updatedAt: new Date() }))!;
}

export async function slugTakenByOther(db: Database, slug: string, id: string | null): Promise<boolean> {
  const [row] = await db.select({ id: bots.id }).from(bots).where(eq(bots.slug, slug)).limit(1);
  return Boolean(row && row.id !== id);
}

export async function insertGalleryPicture(
  db: Database,
  botId: string,
  mediaKey: string,
  visibility: BotPictureRow['visibility'] = 'public',
  explicit = false,
): Promise<BotPictureRow> {
  const [row] = await db
    .insert(botPictures)
    .values({
      botId,
      mediaKey,
      visibility,
      explicit,
      position: sql`(select coalesce(max(${botPictures.position}) + 1, 0) from ${botPictures} where ${botPictures.botId} = ${botId})`,
    })
    .returning();
  return row!;
}

export async function deleteGalleryPicture(
  db: Database,
  botId: string,
  pictureId: string,
): Promise<BotPictureRow | null> {
  const [row] = await db.delete(botPictures).where(galleryPicture(botId, pictureId)).returning();
  return row ?? null;
}

/** Makes a picture public (the page) or private (sent in chat only). */
export async function setPictureVisibility(
  db: Database,
  botId: string,
  pictureId: string,
  visibility: BotPictureRow['visibility'],
): Promise<BotPictureRow | null> {
  return (await updateRow(db, botPictures, galleryPicture(botId, pictureId), { visibility })) ?? null;
}

export async function setGalleryPosition(
  db: Database,
  botId: string,
  pictureId: string,
  position: number,
): Promise<void> {
  await db.update(botPictures).set({ position }).where(galleryPicture(botId, pictureId));
}

/** The character's gallery picture of that id. */
function galleryPicture(botId: string, pictureId: string) {
  return and(eq(botPictures.botId, botId), eq(botPictures.id, pictureId));
}

/**
 * Deletes characters (their gallery rows, chats and messages go with them by cascade), in the
 * caller's transaction; their files are under `characterFilePrefix` (deleted after the commit).
 */
export async function deleteCharacters(db: Database, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  return deleteRows(db, bots, inArray(bots.id, ids));
}
