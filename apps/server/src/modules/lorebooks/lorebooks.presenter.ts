import type { LoreEntry, Lorebook, LorebookSummary } from '@reverie/shared';
import type { BookSummaryRow, LoreEntryRow } from './lorebooks.repository.js';

export function presentEntry(row: LoreEntryRow): LoreEntry {
  return {
    id: row.id,
    uid: row.uid,
    keys: row.keys,
    secondary_keys: row.secondaryKeys,
    selective_logic: row.selectiveLogic,
    content: row.content,
    comment: row.comment,
    constant: row.constant,
    enabled: row.enabled,
    order: row.insertionOrder,
    position: row.position,
    depth: row.depth,
    probability: row.probability,
    case_sensitive: row.caseSensitive,
    use_regex: row.useRegex,
  };
}

/** A book's name and settings as the API and a World Info file both write them. */
export function presentSettings(book: BookSummaryRow) {
  return {
    name: book.name,
    description: book.description,
    scan_depth: book.scanDepth,
    token_budget: book.tokenBudget,
    global: book.global,
    character: book.character,
  };
}

export function presentSummary(book: BookSummaryRow): LorebookSummary {
  return {
    id: book.id,
    ...presentSettings(book),
    entry_count: book.entryCount,
    version: book.version,
    updated_at: book.updatedAt.toISOString(),
  };
}

export function presentBook(book: BookSummaryRow, entries: LoreEntryRow[]): Lorebook {
  return { ...presentSummary(book), entry_count: entries.length, entries: entries.map(presentEntry) };
}
