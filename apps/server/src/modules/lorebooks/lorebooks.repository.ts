/**
 * The SQL of lorebooks (docs/lorebooks.md): `lorebooks`, `lorebook_entries` and
 * `chat_lorebooks`. Every change of a book or its entries raises the book's `version` in the
 * same transaction (the prompt's compiled keys are cached per version), and entry writes take
 * the book's row lock first so that counts and uids stay right under concurrent writes.
 * Read model: `bots` (a character book's name and address).
 */
import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteRows, updateAny } from '../../db/rows.js';
import { bots, chatLorebooks, lorebookEntries, lorebooks } from '../../db/schema.js';
import type { EntryValues } from './formats.js';

export type LorebookRow = typeof lorebooks.$inferSelect;
export type LoreEntryRow = typeof lorebookEntries.$inferSelect;
export type BookValues = Pick<
  typeof lorebooks.$inferInsert,
  'userId' | 'botId' | 'name' | 'description' | 'scanDepth' | 'tokenBudget' | 'global' | 'extensions'
>;
export type BookPatch = Partial<Pick<BookValues, 'name' | 'description' | 'scanDepth' | 'tokenBudget' | 'global'>>;

/** A book with its entry count and, for a character's book, the character. */
export interface BookSummaryRow extends LorebookRow {
  entryCount: number;
  character: { id: string; name: string; slug: string } | null;
}

const entryCount = sql<number>`(select count(*)::int from ${lorebookEntries} where ${lorebookEntries.lorebookId} = ${lorebooks.id})`;

function summaries(db: Database) {
  return db
    .select({
      book: lorebooks,
      entryCount,
      botId: bots.id,
      botName: bots.name,
      botSlug: bots.slug,
    })
    .from(lorebooks)
    .leftJoin(bots, eq(bots.id, lorebooks.botId));
}

type SummarySelect = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];
const toSummary = (row: SummarySelect): BookSummaryRow => ({
  ...row.book,
  entryCount: row.entryCount,
  character: row.botId ? { id: row.botId, name: row.botName!, slug: row.botSlug! } : null,
});

/** The user's own books (not characters'), newest change first. */
export async function listUserBooks(db: Database, userId: string): Promise<BookSummaryRow[]> {
  const rows = await summaries(db)
    .where(and(eq(lorebooks.userId, userId), isNull(lorebooks.botId)))
    .orderBy(sql`${lorebooks.updatedAt} desc`);
  return rows.map(toSummary);
}

/** Every book the user owns — their own and those of the characters they wrote — oldest first (download my data). */
export async function allBooksOf(db: Database, userId: string): Promise<BookSummaryRow[]> {
  const rows = await summaries(db).where(eq(lorebooks.userId, userId)).orderBy(asc(lorebooks.createdAt));
  return rows.map(toSummary);
}

export async function countUserBooks(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(lorebooks)
    .where(and(eq(lorebooks.userId, userId), isNull(lorebooks.botId)));
  return row?.n ?? 0;
}

export async function findBook(db: Database, id: string): Promise<BookSummaryRow | null> {
  const [row] = await summaries(db).where(eq(lorebooks.id, id));
  return row ? toSummary(row) : null;
}

export async function findBotBook(db: Database, botId: string): Promise<BookSummaryRow | null> {
  const [row] = await summaries(db).where(eq(lorebooks.botId, botId));
  return row ? toSummary(row) : null;
}

export async function listEntries(db: Database, bookId: string): Promise<LoreEntryRow[]> {
  return db
    .select()
    .from(lorebookEntries)
    .where(eq(lorebookEntries.lorebookId, bookId))
    .orderBy(asc(lorebookEntries.insertionOrder), asc(lorebookEntries.uid));
}

/** Entries of several books (the prompt compiles them), in their books' order. */
export async function entriesOfBooks(db: Database, bookIds: string[]): Promise<LoreEntryRow[]> {
  if (bookIds.length === 0) return [];
  return db
    .select()
    .from(lorebookEntries)
    .where(inArray(lorebookEntries.lorebookId, bookIds))
    .orderBy(asc(lorebookEntries.insertionOrder), asc(lorebookEntries.uid));
}

const entryRow = (bookId: string, entry: EntryValues) => ({ ...entry, lorebookId: bookId });

/** A new book with its entries; for a character's book, null when the character already has one. */
export async function insertBook(db: Database, values: BookValues, entries: EntryValues[]): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [book] = await tx
      .insert(lorebooks)
      .values(values)
      .onConflictDoNothing({ target: lorebooks.botId })
      .returning({ id: lorebooks.id });
    if (!book) return null;
    if (entries.length) await tx.insert(lorebookEntries).values(entries.map((e) => entryRow(book.id, e)));
    return book.id;
  });
}

/** Raises the book's version and locks its row for the rest of the transaction; false when it is gone. */
async function touch(tx: Database, bookId: string, patch: BookPatch = {}): Promise<boolean> {
  return updateAny(tx, lorebooks, eq(lorebooks.id, bookId), {
    ...patch,
    version: sql`${lorebooks.version} + 1`,
    updatedAt: new Date(),
  });
}

export async function updateBook(db: Database, bookId: string, patch: BookPatch): Promise<boolean> {
  return touch(db, bookId, patch);
}

export async function deleteBook(db: Database, bookId: string): Promise<void> {
  await db.delete(lorebooks).where(eq(lorebooks.id, bookId));
}

async function entryCountOf(tx: Database, bookId: string): Promise<{ n: number; maxUid: number }> {
  const [row] = await tx
    .select({ n: count(), maxUid: sql<number>`coalesce(max(${lorebookEntries.uid}), -1)::int` })
    .from(lorebookEntries)
    .where(eq(lorebookEntries.lorebookId, bookId));
  return { n: row?.n ?? 0, maxUid: row?.maxUid ?? -1 };
}

/** Adds entries (new uids after the book's highest) unless the book would hold more than `max`. */
export async function appendEntries(
  db: Database,
  bookId: string,
  entries: Omit<EntryValues, 'uid'>[],
  options: { max: number; replace?: boolean },
): Promise<'ok' | 'full' | 'gone' | LoreEntryRow[]> {
  return db.transaction(async (tx) => {
    if (!(await touch(tx, bookId))) return 'gone';
    if (options.replace) await tx.delete(lorebookEntries).where(eq(lorebookEntries.lorebookId, bookId));
    const { n, maxUid } = await entryCountOf(tx, bookId);
    if (n + entries.length > options.max) return 'full';
    if (entries.length === 0) return 'ok';
    return tx
      .insert(lorebookEntries)
      .values(entries.map((entry, i) => entryRow(bookId, { ...entry, uid: maxUid + 1 + i })))
      .returning();
  }) as Promise<'ok' | 'full' | 'gone' | LoreEntryRow[]>;
}

export async function updateEntry(
  db: Database,
  bookId: string,
  entryId: string,
  patch: Partial<Omit<EntryValues, 'uid' | 'extensions'>>,
): Promise<LoreEntryRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(lorebookEntries)
      .set(patch)
      .where(and(eq(lorebookEntries.id, entryId), eq(lorebookEntries.lorebookId, bookId)))
      .returning();
    if (row) await touch(tx, bookId);
    return row ?? null;
  });
}

export async function deleteEntry(db: Database, bookId: string, entryId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await touch(tx, bookId))) return false;
    const entry = and(eq(lorebookEntries.id, entryId), eq(lorebookEntries.lorebookId, bookId));
    return (await deleteRows(tx, lorebookEntries, entry)) > 0;
  });
}

/** The user's own books with whether each is attached to the chat. */
export async function chatBooks(
  db: Database,
  userId: string,
  chatId: string,
): Promise<(BookSummaryRow & { attached: boolean })[]> {
  const [books, attached] = await Promise.all([
    listUserBooks(db, userId),
    db.select({ id: chatLorebooks.lorebookId }).from(chatLorebooks).where(eq(chatLorebooks.chatId, chatId)),
  ]);
  const ids = new Set(attached.map((a) => a.id));
  return books.map((book) => ({ ...book, attached: ids.has(book.id) }));
}

/** Attaches exactly `bookIds` (the user's own books, checked by the caller) to the chat. */
export async function setChatBooks(db: Database, chatId: string, bookIds: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chatLorebooks).where(eq(chatLorebooks.chatId, chatId));
    if (bookIds.length) await tx.insert(chatLorebooks).values(bookIds.map((lorebookId) => ({ chatId, lorebookId })));
  });
}

/**
 * The books a reply's prompt reads (without their entries): the character's, then the user's
 * global books and those attached to the chat, oldest first.
 */
export async function promptBooks(
  db: Database,
  input: { userId: string; botId: string; chatId: string },
): Promise<LorebookRow[]> {
  const attached = db
    .select({ id: chatLorebooks.lorebookId })
    .from(chatLorebooks)
    .where(eq(chatLorebooks.chatId, input.chatId));
  return db
    .select()
    .from(lorebooks)
    .where(
      or(
        eq(lorebooks.botId, input.botId),
        and(
          eq(lorebooks.userId, input.userId),
          isNull(lorebooks.botId),
          or(eq(lorebooks.global, true), inArray(lorebooks.id, attached)),
        ),
      ),
    )
    .orderBy(sql`${lorebooks.botId} is null`, asc(lorebooks.createdAt));
}
