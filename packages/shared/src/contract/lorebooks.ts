import { z } from 'zod';
import { freeText, singleLine, wholeNumber } from '../input.js';

/**
 * Lorebooks (issue 29, docs/lorebooks.md): a character's book (its card's `character_book`,
 * edited by the character's author) and each user's own books, used in every chat of theirs
 * when `global`, else in the chats they are attached to.
 *
 * HTTP paths (all need a signed-in user; another user's book, an unknown one, or a character
 * the user is not the author of is 404 `not_found`; bad input 400 `validation_error` with
 * field messages; too many writes 429 `rate_limited`; over a count limit 409):
 *
 *   GET    /api/lorebooks                              → LorebookList (the user's own books)
 *   POST   /api/lorebooks                              LorebookCreateBody → 201 Lorebook
 *   POST   /api/lorebooks/import                       LorebookImportBody → 201 LorebookImportResult
 *   GET    /api/characters/{botId}/lorebook            → Lorebook (the author's; made from the card on first open)
 *   GET    /api/lorebooks/{id}                         → Lorebook (with its entries)
 *   PATCH  /api/lorebooks/{id}                         LorebookUpdateBody → Lorebook
 *   DELETE /api/lorebooks/{id}                         → 204 (a character's book: 409 `character_book`)
 *   POST   /api/lorebooks/{id}/import                  LorebookEntriesImportBody → LorebookImportResult
 *   GET    /api/lorebooks/{id}/export?format=          → World Info JSON or a card's `character_book`
 *   POST   /api/lorebooks/{id}/entries                 LoreEntryBody → 201 LoreEntry
 *   PATCH  /api/lorebooks/{id}/entries/{entryId}       LoreEntryPatch → LoreEntry
 *   DELETE /api/lorebooks/{id}/entries/{entryId}       → 204
 *   GET    /api/chat/{id}/lorebooks                    → ChatLorebooks
 *   PUT    /api/chat/{id}/lorebooks                    ChatLorebooksBody → ChatLorebooks
 *   GET    /api/chat/{id}/messages/{messageId}/prompt  → PromptTrace (what went into that reply's prompt)
 */

/** Where an entry goes: before or after the character's card, around the author's note, or at a depth in the history. */
export const LORE_POSITIONS = ['before_char', 'after_char', 'an_top', 'an_bottom', 'at_depth'] as const;
export type LorePosition = (typeof LORE_POSITIONS)[number];
/** How the secondary keys combine with the primary key (SillyTavern's selective logic). */
export const SELECTIVE_LOGICS = ['and_any', 'and_all', 'not_any', 'not_all'] as const;
export type SelectiveLogic = (typeof SELECTIVE_LOGICS)[number];

export const LOREBOOKS_PER_USER_MAX = 50;
export const LORE_ENTRIES_PER_BOOK_MAX = 500;
export const LOREBOOK_NAME_MAX = 100;
export const LOREBOOK_DESCRIPTION_MAX = 2000;
export const LORE_CONTENT_MAX = 8000;
export const LORE_COMMENT_MAX = 500;
export const LORE_KEYS_MAX = 50;
export const LORE_KEY_MAX = 200;
export const LORE_SCAN_DEPTH_MAX = 100;
export const LORE_SCAN_DEPTH_DEFAULT = 4;
export const LORE_TOKEN_BUDGET_MAX = 32_768;
export const LORE_DEPTH_MAX = 100;
export const LORE_ORDER_MAX = 100_000;
export const LOREBOOKS_PER_CHAT_MAX = 10;
/** Lorebook writes (books, entries, imports) per account per minute. */
export const LORE_WRITES_PER_MINUTE = 120;
/** The largest World Info file or card book an import accepts. */
export const LOREBOOK_IMPORT_MAX_BYTES = 4 * 1024 * 1024;
/**
 * The regular-expression keys of a book that a send tests (the first ones, in the entries'
 * order, primary keys before secondary ones; docs/lorebooks.md "Activation"): the rest never match.
 */
export const LORE_REGEX_KEYS_TESTED = 50;

/** A key written `/pattern/flags` is a regular expression (SillyTavern's convention). */
export const LORE_REGEX_LITERAL = /^\/(.+)\/([dimsu]*)$/s;

/** Whether a key is a regular expression: written `/pattern/flags`, or any key of a `use_regex` entry. */
export const isRegexKey = (key: string, useRegex: boolean): boolean => useRegex || LORE_REGEX_LITERAL.test(key);

/** How many regular-expression keys the entries hold (primary and secondary). */
export const regexKeyCount = (entries: { keys: string[]; secondary_keys: string[]; use_regex: boolean }[]): number =>
  entries.reduce(
    (n, e) => n + [...e.keys, ...e.secondary_keys].filter((key) => isRegexKey(key, e.use_regex)).length,
    0,
  );

const keyList = () =>
  z.array(singleLine().trim().min(1, 'required').max(LORE_KEY_MAX, 'too_long')).max(LORE_KEYS_MAX, 'too_many_items');

/** An entry's fields as written (every field optional on PATCH). */
export const LoreEntryBodySchema = z
  .object({
    keys: keyList().default([]),
    secondary_keys: keyList().default([]),
    selective_logic: z.enum(SELECTIVE_LOGICS).default('and_any'),
    content: freeText().trim().min(1, 'required').max(LORE_CONTENT_MAX, 'too_long'),
    comment: freeText().trim().max(LORE_COMMENT_MAX, 'too_long').default(''),
    constant: z.boolean().default(false),
    enabled: z.boolean().default(true),
    order: wholeNumber(-LORE_ORDER_MAX, LORE_ORDER_MAX).default(100),
    position: z.enum(LORE_POSITIONS).default('after_char'),
    depth: wholeNumber(0, LORE_DEPTH_MAX).default(4),
    probability: wholeNumber(0, 100).default(100),
    case_sensitive: z.boolean().default(false),
    use_regex: z.boolean().default(false),
  })
  .meta({ id: 'LoreEntryBody' });
export type LoreEntryBody = z.input<typeof LoreEntryBodySchema>;
export type LoreEntryFields = z.output<typeof LoreEntryBodySchema>;

export const LoreEntryPatchSchema = z
  .object({
    keys: keyList(),
    secondary_keys: keyList(),
    selective_logic: z.enum(SELECTIVE_LOGICS),
    content: freeText().trim().min(1, 'required').max(LORE_CONTENT_MAX, 'too_long'),
    comment: freeText().trim().max(LORE_COMMENT_MAX, 'too_long'),
    constant: z.boolean(),
    enabled: z.boolean(),
    order: wholeNumber(-LORE_ORDER_MAX, LORE_ORDER_MAX),
    position: z.enum(LORE_POSITIONS),
    depth: wholeNumber(0, LORE_DEPTH_MAX),
    probability: wholeNumber(0, 100),
    case_sensitive: z.boolean(),
    use_regex: z.boolean(),
  })
  .partial()
  .meta({ id: 'LoreEntryPatch' });
export type LoreEntryPatch = z.infer<typeof LoreEntryPatchSchema>;

export const LoreEntrySchema = z
  .object({
    id: z.string(),
    /** The entry's number in its book (World Info's `uid`). */
    uid: z.number().int(),
    keys: z.array(z.string()),
    secondary_keys: z.array(z.string()),
    selective_logic: z.enum(SELECTIVE_LOGICS),
    content: z.string(),
    comment: z.string(),
    constant: z.boolean(),
    enabled: z.boolean(),
    order: z.number().int(),
    position: z.enum(LORE_POSITIONS),
    depth: z.number().int(),
    probability: z.number().int(),
    case_sensitive: z.boolean(),
    use_regex: z.boolean(),
  })
  .meta({ id: 'LoreEntry' });
export type LoreEntry = z.infer<typeof LoreEntrySchema>;

const bookName = () => singleLine().trim().min(1, 'required').max(LOREBOOK_NAME_MAX, 'too_long');
const bookFields = {
  description: freeText().trim().max(LOREBOOK_DESCRIPTION_MAX, 'too_long'),
  scan_depth: wholeNumber(1, LORE_SCAN_DEPTH_MAX),
  token_budget: wholeNumber(0, LORE_TOKEN_BUDGET_MAX),
  /** A user's book only: used in every chat of the user. */
  global: z.boolean(),
};

export const LorebookCreateBodySchema = z
  .object({ name: bookName(), ...bookFields })
  .partial({ description: true, scan_depth: true, token_budget: true, global: true })
  .meta({ id: 'LorebookCreateBody' });
export type LorebookCreateBody = z.infer<typeof LorebookCreateBodySchema>;

export const LorebookUpdateBodySchema = z
  .object({ name: bookName(), ...bookFields })
  .partial()
  .meta({ id: 'LorebookUpdateBody' });
export type LorebookUpdateBody = z.infer<typeof LorebookUpdateBodySchema>;

const LorebookCharacterSchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const LorebookSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    scan_depth: z.number().int(),
    token_budget: z.number().int(),
    global: z.boolean(),
    /** The character whose book it is; null for a user's own book. */
    character: LorebookCharacterSchema.nullable(),
    entry_count: z.number().int(),
    version: z.number().int(),
    updated_at: z.string(),
  })
  .meta({ id: 'LorebookSummary' });
export type LorebookSummary = z.infer<typeof LorebookSummarySchema>;

export const LorebookSchema = LorebookSummarySchema.extend({ entries: z.array(LoreEntrySchema) }).meta({
  id: 'Lorebook',
});
export type Lorebook = z.infer<typeof LorebookSchema>;

/**
 * The answer of an import: the book, how many of the file's entries were written, and how many
 * were left out because they have no text (an entry without text would inject nothing).
 */
export const LorebookImportResultSchema = LorebookSchema.extend({
  imported_entries: z.number().int(),
  skipped_entries: z.number().int(),
}).meta({ id: 'LorebookImportResult' });
export type LorebookImportResult = z.infer<typeof LorebookImportResultSchema>;

export const LorebookListSchema = z.object({ books: z.array(LorebookSummarySchema) }).meta({ id: 'LorebookList' });
export type LorebookList = z.infer<typeof LorebookListSchema>;

/** A World Info file (`{ entries: { "0": {…} } }`) or a card's `character_book` (`{ entries: [...] }`). */
const importData = () => z.record(z.string(), z.unknown());

export const LorebookImportBodySchema = z
  .object({ name: bookName().optional(), data: importData() })
  .meta({ id: 'LorebookImportBody' });
export type LorebookImportBody = z.infer<typeof LorebookImportBodySchema>;

export const LorebookEntriesImportBodySchema = z
  .object({ data: importData(), mode: z.enum(['append', 'replace']).default('append') })
  .meta({ id: 'LorebookEntriesImportBody' });
export type LorebookEntriesImportBody = z.input<typeof LorebookEntriesImportBodySchema>;

export const LOREBOOK_EXPORT_FORMATS = ['world_info', 'character_book'] as const;
export const LorebookExportQuerySchema = z.object({ format: z.enum(LOREBOOK_EXPORT_FORMATS).default('world_info') });

export const LorebookIdParamsSchema = z.object({ id: z.uuid() });
export const LoreEntryParamsSchema = z.object({ id: z.uuid(), entryId: z.uuid() });

export const ChatLorebookSchema = z.object({
  id: z.string(),
  name: z.string(),
  global: z.boolean(),
  attached: z.boolean(),
  entry_count: z.number().int(),
});
export const ChatLorebooksSchema = z
  .object({
    /** The character's book is always used; listed when it has entries the user may know of. */
    books: z.array(ChatLorebookSchema),
  })
  .meta({ id: 'ChatLorebooks' });
export type ChatLorebooks = z.infer<typeof ChatLorebooksSchema>;

export const ChatLorebooksBodySchema = z
  .object({ lorebook_ids: z.array(z.uuid()).max(LOREBOOKS_PER_CHAT_MAX, 'too_many_items') })
  .meta({ id: 'ChatLorebooksBody' });
export type ChatLorebooksBody = z.infer<typeof ChatLorebooksBodySchema>;

export const LORE_STATUSES = ['inserted', 'lost_roll', 'over_budget'] as const;
/** The most fired entries a reply's trace lists (books can fire thousands: each kept ≈ 250 bytes). */
export const PROMPT_TRACE_LORE_MAX = 100;

export const PromptTraceLoreSchema = z.object({
  book_id: z.string(),
  book_name: z.string(),
  entry_id: z.string(),
  /** The entry's comment, else its first key. */
  label: z.string(),
  constant: z.boolean(),
  /** The primary key found; null for a constant entry. */
  key: z.string().nullable(),
  secondary_key: z.string().nullable(),
  probability: z.number().int(),
  /** The roll in [0, 100) for an entry with a chance below 100; null: not rolled. */
  roll: z.number().nullable(),
  status: z.enum(LORE_STATUSES),
  position: z.enum(LORE_POSITIONS),
  depth: z.number().int(),
  tokens: z.number().int(),
});
export type PromptTraceLore = z.infer<typeof PromptTraceLoreSchema>;

export const PromptTraceSchema = z
  .object({
    message_id: z.string(),
    created_at: z.string(),
    /**
     * The lore entries that fired, in insertion order, and whether each went in: those that went
     * in first, at most PROMPT_TRACE_LORE_MAX in all (`tokens` is 0 for one not counted because
     * the prompt's lore share was already used up).
     */
    lore: z.array(PromptTraceLoreSchema),
    /** How many more entries fired than `lore` lists (none went in). */
    lore_omitted: z.number().int(),
    author_note: z.object({ text: z.string(), depth: z.number().int() }).nullable(),
    /** How many long-term memories the prompt held. */
    memories: z.number().int(),
    /** Whether the chat's summary (short-term memory) was in the prompt. */
    summary: z.boolean(),
    /** How many messages of the history the prompt held. */
    history_messages: z.number().int(),
    truncated: z.boolean(),
  })
  .meta({ id: 'PromptTrace' });
export type PromptTrace = z.infer<typeof PromptTraceSchema>;

export const PromptTraceParamsSchema = z.object({ id: singleLine().min(1).max(100), messageId: z.uuid() });
