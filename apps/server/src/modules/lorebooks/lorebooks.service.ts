import {
  LORE_COMMENT_MAX,
  LORE_CONTENT_MAX,
  LORE_ENTRIES_PER_BOOK_MAX,
  LORE_KEY_MAX,
  LORE_KEYS_MAX,
  LOREBOOKS_PER_USER_MAX,
  type ChatLorebooks,
  type LoreEntry,
  type LoreEntryFields,
  type LoreEntryPatch,
  type Lorebook,
  type LorebookCreateBody,
  type LorebookEntriesImportBody,
  type LorebookImportBody,
  type LorebookImportResult,
  type LorebookList,
  type LorebookUpdateBody,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import type { BotsService } from '../bots/index.js';
import {
  readBookFile,
  readCardBookLeniently,
  regexProblems,
  toCharacterBook,
  toWorldInfo,
  uniqueUids,
  type EntryValues,
} from './formats.js';
import { cardBookInput } from './card-book.js';
import { LoreCompiler, type CompiledBook, type LoreBookInput } from './lore-engine.js';
import * as repo from './lorebooks.repository.js';
import { presentBook, presentEntry, presentSettings, presentSummary } from './lorebooks.presenter.js';

export interface LorebooksServiceDeps {
  db: Database;
  bots: Pick<BotsService, 'findBotById' | 'findVisibleBotBySlug'>;
  /** Writes (books, entries, imports, attachments) per account per minute. */
  writes: Pick<WindowLimiter, 'take'>;
  compiler?: LoreCompiler;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An entry's API fields as columns. */
function entryColumns(body: Partial<LoreEntryFields>): Partial<Omit<EntryValues, 'uid' | 'extensions'>> {
  const columns: Partial<Omit<EntryValues, 'uid' | 'extensions'>> = {
    keys: body.keys,
    secondaryKeys: body.secondary_keys,
    selectiveLogic: body.selective_logic,
    content: body.content,
    comment: body.comment,
    constant: body.constant,
    enabled: body.enabled,
    insertionOrder: body.order,
    position: body.position,
    depth: body.depth,
    probability: body.probability,
    caseSensitive: body.case_sensitive,
    useRegex: body.use_regex,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

/** A card's entry kept within the entry rules (a card's book is stored as imported, unchecked). */
function withinLimits(entry: EntryValues): EntryValues {
  const keys = (list: string[]) => list.slice(0, LORE_KEYS_MAX).map((k) => k.slice(0, LORE_KEY_MAX));
  return {
    ...entry,
    keys: keys(entry.keys),
    secondaryKeys: keys(entry.secondaryKeys),
    content: entry.content.slice(0, LORE_CONTENT_MAX),
    comment: entry.comment.slice(0, LORE_COMMENT_MAX),
    insertionOrder: Math.min(100_000, Math.max(-100_000, entry.insertionOrder)),
    depth: Math.min(100, Math.max(0, entry.depth)),
  };
}

const fnv = (text: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
};

const entryInput = (id: string, e: EntryValues) => ({
  ...e,
  id,
  priority: typeof e.extensions.priority === 'number' ? e.extensions.priority : 0,
});

/**
 * Lorebooks (docs/lorebooks.md): a character's book, edited by its author only, and each
 * user's private books; their entries, World Info and card files, the chats they are attached
 * to, and the compiled books of a reply's prompt.
 */
export class LorebooksService {
  readonly compiler: LoreCompiler;

  constructor(private readonly deps: LorebooksServiceDeps) {
    this.compiler = deps.compiler ?? new LoreCompiler();
  }

  private async write(userId: string): Promise<void> {
    const wait = await this.deps.writes.take(userId);
    if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
  }

  /** The user's own book, or the character's book of which they are the author; else 404. */
  private async ownBook(userId: string, id: string): Promise<repo.BookSummaryRow> {
    const book = await repo.findBook(this.deps.db, id);
    if (!book || book.userId !== userId) throw notFound();
    return book;
  }

  private async present(book: repo.BookSummaryRow): Promise<Lorebook> {
    return presentBook(book, await repo.listEntries(this.deps.db, book.id));
  }

  async list(userId: string): Promise<LorebookList> {
    return { books: (await repo.listUserBooks(this.deps.db, userId)).map(presentSummary) };
  }

  async get(userId: string, id: string): Promise<Lorebook> {
    return this.present(await this.ownBook(userId, id));
  }

  private async newUserBook(userId: string, file: Omit<repo.BookValues, 'userId' | 'botId'>, entries: EntryValues[]) {
    if ((await repo.countUserBooks(this.deps.db, userId)) >= LOREBOOKS_PER_USER_MAX)
      throw new AppError('lorebooks_full', { status: 409 });
    const id = await repo.insertBook(this.deps.db, { ...file, userId, botId: null }, entries);
    return this.get(userId, id!);
  }

  async create(userId: string, body: LorebookCreateBody): Promise<Lorebook> {
    await this.write(userId);
    return this.newUserBook(
      userId,
      {
        name: body.name,
        description: body.description ?? '',
        scanDepth: body.scan_depth ?? 4,
        tokenBudget: body.token_budget ?? 0,
        global: body.global ?? false,
        extensions: {},
      },
      [],
    );
  }

  /** A new book of the user's from a World Info file or a card's book. */
  async importNew(userId: string, body: LorebookImportBody): Promise<LorebookImportResult> {
    await this.write(userId);
    const file = readBookFile(body.data);
    const book = await this.newUserBook(
      userId,
      {
        name: body.name ?? file.name ?? 'Lorebook',
        description: file.description,
        scanDepth: file.scanDepth,
        tokenBudget: file.tokenBudget,
        global: false,
        extensions: file.extensions,
      },
      file.entries,
    );
    return { ...book, imported_entries: file.entries.length, skipped_entries: file.skipped };
  }

  /**
   * The character's book for its author: made from the card's `character_book` on first open
   * (docs/lorebooks.md "A card's book"); until then the prompt reads the card's own.
   */
  async characterBook(userId: string, ref: string): Promise<Lorebook> {
    const { db, bots } = this.deps;
    const bot = UUID.test(ref) ? await bots.findBotById(ref) : await bots.findVisibleBotBySlug(ref, userId);
    if (!bot || bot.kind !== 'character' || bot.authorId !== userId) throw notFound();
    const stored = await repo.findBotBook(db, bot.id);
    if (stored) return this.present(stored);
    const card = bot.characterBook ?? {};
    const read = readCardBookLeniently(card);
    const name = typeof card.name === 'string' && card.name.trim() ? card.name.trim().slice(0, 100) : bot.name;
    const { name: _n, description, scan_depth: _s, token_budget: _t, entries: _e, ...extensions } = card;
    await repo.insertBook(
      db,
      {
        userId,
        botId: bot.id,
        name,
        description: typeof description === 'string' ? description.slice(0, 2000) : '',
        scanDepth: Math.min(100, read.scanDepth),
        tokenBudget: Math.min(32_768, Math.round(read.tokenBudget)),
        global: false,
        extensions,
      },
      uniqueUids(read.entries.slice(0, LORE_ENTRIES_PER_BOOK_MAX).map(withinLimits)),
    );
    // Another request may have made it meanwhile: the one stored is the book.
    return this.present((await repo.findBotBook(db, bot.id))!);
  }

  async update(userId: string, id: string, body: LorebookUpdateBody): Promise<Lorebook> {
    await this.write(userId);
    const book = await this.ownBook(userId, id);
    if (book.botId && body.global !== undefined)
      throw new AppError('validation_error', { errors: { global: ['invalid_value'] } });
    await repo.updateBook(this.deps.db, id, {
      name: body.name,
      description: body.description,
      scanDepth: body.scan_depth,
      tokenBudget: body.token_budget,
      global: body.global,
    });
    return this.get(userId, id);
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.write(userId);
    const book = await this.ownBook(userId, id);
    if (book.botId) throw new AppError('character_book', { status: 409 });
    await repo.deleteBook(this.deps.db, id);
  }

  /** Entries from a World Info file or a card's book, added to the book or replacing its entries. */
  async importInto(userId: string, id: string, body: LorebookEntriesImportBody): Promise<LorebookImportResult> {
    await this.write(userId);
    await this.ownBook(userId, id);
    const file = readBookFile(body.data);
    const result = await repo.appendEntries(
      this.deps.db,
      id,
      file.entries.map(({ uid: _uid, ...entry }) => entry),
      { max: LORE_ENTRIES_PER_BOOK_MAX, replace: body.mode === 'replace' },
    );
    if (result === 'gone') throw notFound();
    if (result === 'full') throw new AppError('lorebook_full', { status: 409 });
    return { ...(await this.get(userId, id)), imported_entries: file.entries.length, skipped_entries: file.skipped };
  }

  async export(userId: string, id: string, format: 'world_info' | 'character_book'): Promise<Record<string, unknown>> {
    const book = await this.ownBook(userId, id);
    const entries = (await repo.listEntries(this.deps.db, id)).map(rowValues);
    return format === 'world_info' ? toWorldInfo(entries) : toCharacterBook(book, entries);
  }

  private checkRegex(fields: { keys: string[]; secondary_keys: string[] }, useRegex: boolean): void {
    const errors = regexProblems(fields, useRegex);
    if (Object.keys(errors).length) throw new AppError('validation_error', { errors });
  }

  async createEntry(userId: string, id: string, body: LoreEntryFields): Promise<LoreEntry> {
    await this.write(userId);
    await this.ownBook(userId, id);
    this.checkRegex(body, body.use_regex);
    const columns = { ...(entryColumns(body) as Omit<EntryValues, 'uid' | 'extensions'>), extensions: {} };
    const result = await repo.appendEntries(this.deps.db, id, [columns], { max: LORE_ENTRIES_PER_BOOK_MAX });
    if (result === 'gone') throw notFound();
    if (result === 'full') throw new AppError('lorebook_full', { status: 409 });
    return presentEntry((result as repo.LoreEntryRow[])[0]!);
  }

  async updateEntry(userId: string, id: string, entryId: string, body: LoreEntryPatch): Promise<LoreEntry> {
    await this.write(userId);
    await this.ownBook(userId, id);
    if (body.keys || body.secondary_keys || body.use_regex !== undefined) {
      const current = (await repo.listEntries(this.deps.db, id)).find((e) => e.id === entryId);
      if (!current) throw notFound();
      this.checkRegex(
        { keys: body.keys ?? current.keys, secondary_keys: body.secondary_keys ?? current.secondaryKeys },
        body.use_regex ?? current.useRegex,
      );
    }
    const row = await repo.updateEntry(this.deps.db, id, entryId, entryColumns(body));
    if (!row) throw notFound();
    return presentEntry(row);
  }

  async deleteEntry(userId: string, id: string, entryId: string): Promise<void> {
    await this.write(userId);
    await this.ownBook(userId, id);
    if (!(await repo.deleteEntry(this.deps.db, id, entryId))) throw notFound();
  }

  /** The user's books with whether each is attached to the chat (the chat's owner is checked by the caller). */
  async chatBooks(userId: string, chatId: string): Promise<ChatLorebooks> {
    const books = await repo.chatBooks(this.deps.db, userId, chatId);
    return {
      books: books.map((b) => ({
        id: b.id,
        name: b.name,
        global: b.global,
        attached: b.attached,
        entry_count: b.entryCount,
      })),
    };
  }

  async setChatBooks(userId: string, chatId: string, bookIds: string[]): Promise<ChatLorebooks> {
    await this.write(userId);
    const own = new Set((await repo.listUserBooks(this.deps.db, userId)).map((b) => b.id));
    const ids = [...new Set(bookIds)];
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      if (!own.has(id)) errors[`lorebook_ids.${i}`] = ['invalid_value'];
    });
    if (Object.keys(errors).length) throw new AppError('validation_error', { errors });
    await repo.setChatBooks(this.deps.db, chatId, ids);
    return this.chatBooks(userId, chatId);
  }

  /**
   * The compiled books of a reply's prompt: the character's (stored, else the card's own
   * `character_book`), then the user's global books and those attached to the chat. Keys are
   * compiled once per book version in this process (`LoreCompiler`).
   */
  async forPrompt(input: {
    userId: string;
    botId: string;
    chatId: string;
    cardBook: Record<string, unknown> | null;
    /** The caller found no stored book of the character or the user: only the card's own is compiled. */
    noneStored?: boolean;
  }): Promise<CompiledBook[]> {
    const { db } = this.deps;
    const books = input.noneStored ? [] : await repo.promptBooks(db, input);
    const key = (b: repo.LorebookRow) => `${b.id}:${b.version}`;
    const missing = books.filter((b) => !this.compiler.has(key(b)));
    const rows = await repo.entriesOfBooks(
      db,
      missing.map((b) => b.id),
    );
    const compiled = books.map((book) =>
      this.compiler.get(key(book), (): LoreBookInput => ({
        id: book.id,
        name: book.name,
        scanDepth: book.scanDepth,
        tokenBudget: book.tokenBudget,
        entries: rows.filter((r) => r.lorebookId === book.id).map((r) => entryInput(r.id, rowValues(r))),
      })),
    );
    if (!books.some((b) => b.botId === input.botId) && input.cardBook) compiled.unshift(this.cardBook(input));
    return compiled;
  }

  /** A card's book never edited: compiled once per content (keyed by its hash). */
  private cardBook(input: { botId: string; cardBook: Record<string, unknown> | null }): CompiledBook {
    const json = JSON.stringify(input.cardBook);
    return this.compiler.get(`card:${input.botId}:${fnv(json)}:${json.length}`, () =>
      cardBookInput(input.cardBook, `card:${input.botId}`),
    );
  }

  /** The character's edited book as a card's `character_book` (card export); null: never edited. */
  async editedCardBook(botId: string): Promise<Record<string, unknown> | null> {
    const book = await repo.findBotBook(this.deps.db, botId);
    if (!book) return null;
    return toCharacterBook(book, (await repo.listEntries(this.deps.db, book.id)).map(rowValues));
  }
}

/** A stored entry's values. */
export function rowValues(row: repo.LoreEntryRow): EntryValues {
  return {
    uid: row.uid,
    keys: row.keys,
    secondaryKeys: row.secondaryKeys,
    selectiveLogic: row.selectiveLogic,
    content: row.content,
    comment: row.comment,
    constant: row.constant,
    enabled: row.enabled,
    insertionOrder: row.insertionOrder,
    position: row.position,
    depth: row.depth,
    probability: row.probability,
    caseSensitive: row.caseSensitive,
    useRegex: row.useRegex,
    extensions: row.extensions,
  };
}

/**
 * The user's lorebooks for "Download my data" (docs/accounts.md): each book — their own and
 * their characters' — as World Info JSON with its name and settings, which SillyTavern and this
 * app's import read back (`readBookFile`).
 */
export async function exportUserLorebooks(
  db: Database,
  userId: string,
): Promise<{ id: string; name: string; file: Record<string, unknown> }[]> {
  const books = await repo.allBooksOf(db, userId);
  const entries = await repo.entriesOfBooks(
    db,
    books.map((b) => b.id),
  );
  return books.map((book) => ({
    id: book.id,
    name: book.name,
    file: {
      ...presentSettings(book),
      ...toWorldInfo(entries.filter((e) => e.lorebookId === book.id).map(rowValues)),
    },
  }));
}
