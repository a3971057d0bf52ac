import { readCardBookLeniently } from './formats.js';
import { compileBook, type CompiledBook, type LoreBookInput } from './lore-engine.js';

/** A card's `character_book` as stored (never edited) as activation reads it. */
export function cardBookInput(book: Record<string, unknown> | null, id: string): LoreBookInput {
  const read = readCardBookLeniently(book);
  return {
    id,
    name: typeof book?.name === 'string' ? book.name : '',
    scanDepth: read.scanDepth,
    tokenBudget: read.tokenBudget,
    entries: read.entries.map((e, i) => ({
      ...e,
      id: `card:${i}`,
      priority: typeof e.extensions.priority === 'number' ? e.extensions.priority : 0,
    })),
  };
}

/** A card's book compiled (no cache: the prompt builder's fallback when no books are given). */
export const compileCardBook = (book: Record<string, unknown> | null, id = 'card'): CompiledBook =>
  compileBook(cardBookInput(book, id));
