import { z } from 'zod';
import { freeText, singleLine } from '../input.js';

/**
 * Long-term memory (issue 28, PRODUCT.md §10 "Memory is the user's"; docs/memory.md).
 *
 * Memories are records per user AND character, shared by all that pair's chats. A correction
 * supersedes (a new revision), it never overwrites: GET /api/memories/{id}/history lists them.
 * Forgetting is real: the memory and its history are deleted and never reach a later prompt.
 *
 * HTTP paths (all need a signed-in user; another user's memory, chat or an unknown character
 * is 404 `not_found`; bad input 400 `validation_error`; too many writes 429 `rate_limited`):
 *
 *   GET    /api/characters/{botId}/memories         ?q&kind&pinned&size&c  → MemoryList
 *   POST   /api/characters/{botId}/memories         MemoryCreateBody       → 201 Memory
 *   DELETE /api/characters/{botId}/memories         (forget everything about me) → MemoryForgetAllResult
 *   GET    /api/memories/{id}                                              → Memory
 *   PATCH  /api/memories/{id}                       MemoryUpdateBody       → Memory (a new revision)
 *   DELETE /api/memories/{id}                       (forget one, with its history) → 204
 *   GET    /api/memories/{id}/history                                      → MemoryHistory (newest first)
 *   GET    /api/characters/{botId}/journal          ?size&c                → JournalList
 *   PUT    /api/characters/{botId}/journal          JournalSettingsBody    → JournalSettings
 *   PATCH  /api/chat/{id}                           { remember: boolean }  → Chat (`remember`)
 *   GET    /api/chat/history/{id}                   each bot reply's `memories` (MessageMemories)
 *   GET/PUT /api/chat/{id}/memory                   unchanged: the per-chat summary (short-term layer)
 *
 * `botId` is the character's id (its slug is also accepted).
 */

/** What a memory is about. */
export const MEMORY_KINDS = ['user', 'event', 'relationship', 'character', 'story'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Where a memory (revision) came from. */
export const MEMORY_ORIGINS = ['model', 'user', 'summary'] as const;
export type MemoryOrigin = (typeof MEMORY_ORIGINS)[number];

/** What a revision did: first written, corrected (by the model or the user), duplicates merged into it, pinned/unpinned. */
export const MEMORY_CHANGES = ['created', 'corrected', 'merged', 'pinned', 'unpinned'] as const;
export type MemoryChange = (typeof MEMORY_CHANGES)[number];

export const MEMORY_TEXT_MAX = 500;
export const MEMORY_SEARCH_MAX = 100;
export const MEMORY_IMPORTANCE_MIN = 1;
export const MEMORY_IMPORTANCE_MAX = 5;
export const MEMORY_IMPORTANCE_DEFAULT = 3;
export const MEMORY_PAGE_SIZE = 50;
export const MEMORY_PAGE_SIZE_MAX = 200;
/** Most memories one user may keep with one character (adds beyond it: 409 `memory_full`). */
export const MEMORIES_PER_CHARACTER_MAX = 20000;
/** Writes (create, update, delete) per account per minute. */
export const MEMORY_WRITES_PER_MINUTE = 60;
export const JOURNAL_PAGE_SIZE = 30;

/** A calendar day, `YYYY-MM-DD`. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayField = () =>
  z
    .string()
    .regex(DAY, 'invalid_date')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'invalid_date');

const memoryText = () => freeText().trim().min(1, 'required').max(MEMORY_TEXT_MAX, 'too_long');
const importanceField = () => z.number().int().min(MEMORY_IMPORTANCE_MIN).max(MEMORY_IMPORTANCE_MAX);

export const MemorySchema = z
  .object({
    id: z.string(),
    bot_id: z.string(),
    kind: z.enum(MEMORY_KINDS),
    text: z.string(),
    /** A shared event's day (kind `event`; null when unknown or another kind). */
    event_date: z.string().nullable(),
    importance: z.number().int(),
    pinned: z.boolean(),
    origin: z.enum(MEMORY_ORIGINS),
    /** The messages it came from (newest last; ids of messages since deleted stay listed). */
    source_message_ids: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Memory' });
export type Memory = z.infer<typeof MemorySchema>;

export const MemoryListSchema = z
  .object({
    results: z.array(MemorySchema),
    next_param: z.string().nullable(),
    /**
     * How many memories of each kind the list holds in all (with its `kind` and `pinned`
     * filters; a kind with none is left out): on the first page of a list without `q`, so that
     * a page of 200 can say how many there are; null on later pages and for a search.
     */
    counts: z.partialRecord(z.enum(MEMORY_KINDS), z.number().int()).nullable(),
  })
  .meta({ id: 'MemoryList' });
export type MemoryList = z.infer<typeof MemoryListSchema>;

/**
 * GET /api/characters/{botId}/memories: newest first (pinned first) in pages of `size`;
 * with `q`, the best matches first (one page, `next_param` null); `kind` and `pinned` filter.
 */
export const MemoryListQuerySchema = z.object({
  q: singleLine(z.string().trim().max(MEMORY_SEARCH_MAX, { message: 'too_long' }))
    .optional()
    .transform((v) => v || undefined),
  kind: z.enum(MEMORY_KINDS).optional(),
  pinned: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  size: z.coerce.number().int().min(1).max(MEMORY_PAGE_SIZE_MAX).default(MEMORY_PAGE_SIZE),
  c: singleLine().max(300).optional(),
});
export type MemoryListQuery = z.infer<typeof MemoryListQuerySchema>;

/** POST /api/characters/{botId}/memories: a memory added by hand. */
export const MemoryCreateBodySchema = z.object({
  text: memoryText(),
  kind: z.enum(MEMORY_KINDS),
  event_date: dayField().nullable().optional(),
  importance: importanceField().optional(),
  pinned: z.boolean().optional(),
});
export type MemoryCreateBody = z.infer<typeof MemoryCreateBodySchema>;

/** PATCH /api/memories/{id}: any of the fields; a change of text, kind, date or importance is a new revision. */
export const MemoryUpdateBodySchema = z
  .object({
    text: memoryText().optional(),
    kind: z.enum(MEMORY_KINDS).optional(),
    event_date: dayField().nullable().optional(),
    importance: importanceField().optional(),
    pinned: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'required', path: ['text'] });
export type MemoryUpdateBody = z.infer<typeof MemoryUpdateBodySchema>;

export const MemoryIdParamsSchema = z.object({ id: singleLine().min(1).max(100) });
export const CharacterParamsSchema = z.object({ botId: singleLine().min(1).max(100) });

/** One revision of a memory (the current one included, newest first). */
export const MemoryHistoryEntrySchema = z
  .object({
    id: z.string(),
    memory_id: z.string(),
    change: z.enum(MEMORY_CHANGES),
    origin: z.enum(MEMORY_ORIGINS),
    kind: z.enum(MEMORY_KINDS),
    text: z.string(),
    event_date: z.string().nullable(),
    importance: z.number().int(),
    pinned: z.boolean(),
    /** The messages that led to this revision. */
    source_message_ids: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'MemoryHistoryEntry' });
export type MemoryHistoryEntry = z.infer<typeof MemoryHistoryEntrySchema>;
export const MemoryHistorySchema = z
  .object({ results: z.array(MemoryHistoryEntrySchema) })
  .meta({ id: 'MemoryHistory' });
export type MemoryHistory = z.infer<typeof MemoryHistorySchema>;

export const MemoryForgetAllResultSchema = z
  .object({ deleted: z.number().int() })
  .meta({ id: 'MemoryForgetAllResult' });
export type MemoryForgetAllResult = z.infer<typeof MemoryForgetAllResultSchema>;

/**
 * A bot reply's memories ("why did she say that"), on each Message of the history:
 * `in_prompt` the memory ids that were in the reply's prompt (in prompt order), `drew_on` those
 * of them the reply drew on (a subset; docs/memory.md says how it is decided). Ids of memories
 * since forgotten are left out. Absent (undefined) on user and system messages and on replies
 * whose prompt held no memory.
 */
export const MessageMemoriesSchema = z
  .object({ in_prompt: z.array(z.string()), drew_on: z.array(z.string()) })
  .meta({ id: 'MessageMemories' });
export type MessageMemories = z.infer<typeof MessageMemoriesSchema>;

/** The per-chat "don't remember this chat" flag: PATCH /api/chat/{id} `{remember: false}`; Chat.remember. */
export const ChatRememberFieldSchema = z.boolean();

/** One diary entry of the character's journal: one per day of conversation, in her voice. */
export const JournalEntrySchema = z
  .object({
    id: z.string(),
    bot_id: z.string(),
    /** The day of conversation it is about (`YYYY-MM-DD`, UTC). */
    day: z.string(),
    text: z.string(),
    /** The memories it was drawn from. */
    memory_ids: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'JournalEntry' });
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** GET /api/characters/{botId}/journal: whether it is on, and its entries newest day first. */
export const JournalListSchema = z
  .object({ enabled: z.boolean(), results: z.array(JournalEntrySchema), next_param: z.string().nullable() })
  .meta({ id: 'JournalList' });
export type JournalList = z.infer<typeof JournalListSchema>;
export const JournalListQuerySchema = z.object({
  size: z.coerce.number().int().min(1).max(100).default(JOURNAL_PAGE_SIZE),
  c: singleLine().max(300).optional(),
});

/** PUT /api/characters/{botId}/journal: the journal on or off for this character (off by default). */
export const JournalSettingsBodySchema = z.object({ enabled: z.boolean() });
export const JournalSettingsSchema = z.object({ enabled: z.boolean() }).meta({ id: 'JournalSettings' });
export type JournalSettings = z.infer<typeof JournalSettingsSchema>;
