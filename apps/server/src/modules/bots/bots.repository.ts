import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { BotFilterTag } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { botPictures, bots, LISTED, STYLE } from '../../db/schema.js';

export type BotRow = typeof bots.$inferSelect;
export type NewBotRow = typeof bots.$inferInsert;
export type BotPictureRow = typeof botPictures.$inferSelect;

/** Seen in the catalogue by everyone: public and approved. */
const isListed = () => and(eq(bots.visibility, 'public'), eq(bots.reviewState, 'approved'));

/** What a viewer may see: listed characters, and their own. */
function visibleTo(viewerId: string | null): SQL {
  return viewerId ? or(isListed(), eq(bots.authorId, viewerId))! : isListed()!;
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
 * One page of the catalogue, newest first, keyset-paginated on (created_at, id) so that
 * characters inserted between page loads never shift later pages. Filters: official and
 * custom select the source, anime and realistic the style; within a group they combine
 * with OR, across groups with AND. A signed-in viewer also sees their own unlisted
 * characters (a second, author-indexed branch of a UNION).
 */
export async function listCatalogue(
  db: Database,
  options: {
    viewerId: string | null;
    tags: BotFilterTag[];
    /** Search words: each must appear (case-insensitive) in the name or in one of the tags. */
    search?: string;
    limit: number;
    after: { createdAt: string; id: string } | null;
  },
): Promise<CatalogueRow[]> {
  const filters: SQL[] = [];
  for (const word of searchWords(options.search)) {
    const pattern = `%${escapeLike(word)}%`;
    filters.push(
      sql`(${bots.name} ilike ${pattern} escape '\\' or exists (select 1 from unnest(${bots.tags}) as tag where tag ilike ${pattern} escape '\\'))`,
    );
  }
  const official = options.tags.includes('official');
  const custom = options.tags.includes('custom');
  // Literal SQL (the values are a closed set) so the partial indexes' predicates match.
  if (official !== custom) filters.push(sql.raw(`"bots"."is_official" = ${official ? 'true' : 'false'}`));
  const styles = options.tags.filter((t): t is 'anime' | 'realistic' => t === 'anime' || t === 'realistic');
  if (styles.length === 1) filters.push(sql.raw(STYLE(styles[0]!)));
  if (styles.length > 1) filters.push(sql.raw(`(${styles.map(STYLE).join(' or ')})`));
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
      .orderBy(...(official !== custom ? [desc(bots.isOfficial)] : []), desc(bots.createdAt), desc(bots.id))
      .limit(options.limit);
  if (!options.viewerId) return branch(sql.raw(LISTED));
  const own = and(eq(bots.authorId, options.viewerId), eq(bots.kind, 'character'), sql.raw(`not (${LISTED})`))!;
  const rows = await unionAll(branch(sql.raw(LISTED)), branch(own));
  return rows
    .sort((a, b) => (a.cursorAt === b.cursorAt ? (a.id < b.id ? 1 : -1) : a.cursorAt < b.cursorAt ? 1 : -1))
    .slice(0, options.limit);
}

/** The user's own characters or personas, newest first. */
export async function listBotsByAuthor(
  db: Database,
  authorId: string,
  kind?: 'character' | 'persona',
): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.authorId, authorId), kind ? eq(bots.kind, kind) : undefined))
    .orderBy(desc(bots.createdAt), desc(bots.id))
    .limit(200);
}

export async function insertBot(db: Database, values: NewBotRow): Promise<BotRow> {
  const [row] = await db.insert(bots).values(values).returning();
  return row!;
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
  const [row] = await db.select({ id: bots.id }).from(bots).where(eq(bots.slug, slug)).limit(1);
  return Boolean(row);
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
  const [row] = await db
    .update(bots)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(bots.id, id))
    .returning();
  return row!;
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
): Promise<BotPictureRow> {
  const [row] = await db
    .insert(botPictures)
    .values({
      botId,
      mediaKey,
      visibility,
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
  const [row] = await db
    .delete(botPictures)
    .where(and(eq(botPictures.botId, botId), eq(botPictures.id, pictureId)))
    .returning();
  return row ?? null;
}

/** Makes a picture public (the page) or private (sent in chat only). */
export async function setPictureVisibility(
  db: Database,
  botId: string,
  pictureId: string,
  visibility: BotPictureRow['visibility'],
): Promise<BotPictureRow | null> {
  const [row] = await db
    .update(botPictures)
    .set({ visibility })
    .where(and(eq(botPictures.botId, botId), eq(botPictures.id, pictureId)))
    .returning();
  return row ?? null;
}

export async function setGalleryPosition(
  db: Database,
  botId: string,
  pictureId: string,
  position: number,
): Promise<void> {
  await db
    .update(botPictures)
    .set({ position })
    .where(and(eq(botPictures.botId, botId), eq(botPictures.id, pictureId)));
}

/**
 * Deletes characters (their gallery rows, chats and messages go with them by cascade), in the
 * caller's transaction; their files are under `characterFilePrefix` (deleted after the commit).
 */
export async function deleteCharacters(db: Database, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await db.delete(bots).where(inArray(bots.id, ids)).returning({ id: bots.id });
  return rows.length;
}
