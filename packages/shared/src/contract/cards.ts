import { z } from 'zod';
import { cleanJsonValue, freeText, singleLine } from '../input.js';
import { BOT_LIMITS } from './bots.js';

/**
 * The fields of an imported Character Card (V1, V2's and V3's `data`), with the limits of
 * the create form (BOT_LIMITS) and the input rules of every other field: free text is
 * cleaned, single-line fields refuse control characters, lists and the lorebook are
 * bounded, and free-form JSON (extensions, lorebook settings) is cleaned and size-bounded.
 * A missing or mistyped optional field reads as empty, as card readers usually do; a field
 * over its limit is refused with a field error, never cut.
 */
const asString = (v: unknown) => (typeof v === 'string' ? v : '');
const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

// Preprocessing (not `.transform().pipe()`) keeps absent keys valid: they read as empty.
const text = (max: number) => z.preprocess(asString, freeText().max(max, 'too_long'));
const line = (max: number) => z.preprocess(asString, singleLine().trim().max(max, 'too_long'));
const texts = (item: z.ZodType<string>, maxItems: number) =>
  z.preprocess(asStrings, z.array(item).max(maxItems, 'too_many_items'));

/** Free-form JSON of a card: cleaned (no NUL, no prototype keys) and at most `maxChars` as JSON. */
export const cardJson = (maxChars: number) =>
  z.preprocess(
    (v) => (isRecord(v) ? cleanJsonValue(v) : {}),
    z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= maxChars, 'too_long'),
  );

const LorebookEntrySchema = z.looseObject({
  keys: texts(text(BOT_LIMITS.lorebookKey), BOT_LIMITS.lorebookKeys),
  secondary_keys: texts(text(BOT_LIMITS.lorebookKey), BOT_LIMITS.lorebookKeys).optional(),
  content: text(BOT_LIMITS.lorebookEntry),
});

const LorebookSchema = z
  .looseObject({
    entries: z.preprocess(
      (v) => (Array.isArray(v) ? v : []),
      z.array(LorebookEntrySchema).max(BOT_LIMITS.lorebookEntries, 'too_many_items'),
    ),
  })
  .transform((book) => cleanJsonValue(book) as Record<string, unknown>)
  .refine(
    (book) =>
      JSON.stringify({ ...book, entries: [] }).length <= BOT_LIMITS.extraJsonBytes &&
      JSON.stringify(book).length <=
        BOT_LIMITS.extraJsonBytes + BOT_LIMITS.lorebookEntries * (BOT_LIMITS.lorebookEntry + 1024),
    'too_long',
  );

export const CardDataSchema = z.object({
  name: line(BOT_LIMITS.name),
  description: text(BOT_LIMITS.description),
  personality: text(BOT_LIMITS.personalityText),
  scenario: text(BOT_LIMITS.scenario),
  first_mes: text(BOT_LIMITS.greeting),
  mes_example: text(BOT_LIMITS.exampleMessages),
  creator_notes: text(BOT_LIMITS.creatorNotes),
  system_prompt: text(BOT_LIMITS.systemPrompt),
  post_history_instructions: text(BOT_LIMITS.postHistoryInstructions),
  alternate_greetings: texts(text(BOT_LIMITS.greeting), BOT_LIMITS.alternateGreetings),
  character_book: z.preprocess((v) => (isRecord(v) ? v : null), LorebookSchema.nullable()),
  tags: texts(line(BOT_LIMITS.tag), 1000)
    .transform((tags) => [...new Set(tags.map((t) => t.toLowerCase()).filter(Boolean))])
    .pipe(z.array(z.string()).max(BOT_LIMITS.tags, 'too_many_items')),
  creator: line(BOT_LIMITS.creator),
  character_version: line(BOT_LIMITS.characterVersion),
  extensions: cardJson(BOT_LIMITS.extraJsonBytes),
});
export type CardDataFields = z.output<typeof CardDataSchema>;

/** This server's own card fields (`extensions.reverie`); what does not fit reads as absent. */
export const ReverieExtensionSchema = z.object({
  age: z.preprocess((v) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined), z.number().optional()),
  kind: z.preprocess((v) => (v === 'persona' ? v : 'character'), z.enum(['character', 'persona'])),
  occupation: texts(line(BOT_LIMITS.choice), 3),
  personality: texts(line(BOT_LIMITS.choice), 3),
  voice: line(100),
});
