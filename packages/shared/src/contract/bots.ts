import { z } from 'zod';
import { BOTS_FIRST_PAGE_SIZE, MIN_CHARACTER_AGE, PERSONA_CHOICES_MAX } from '../constants.js';
import { BOT_SLUG_MAX, BOT_SLUG_PATTERN } from '../routes.js';

/** The explore filters (spec §1): source (official/custom) and style (anime/realistic). */
export const BOT_FILTER_TAGS = ['official', 'custom', 'anime', 'realistic'] as const;
export type BotFilterTag = (typeof BOT_FILTER_TAGS)[number];

export const BOT_KINDS = ['character', 'persona'] as const;
export const BOT_VISIBILITIES = ['public', 'private'] as const;
export const BOT_REVIEW_STATES = ['pending', 'approved', 'rejected'] as const;

/** Options offered by the create form; free text is accepted too. */
export const OCCUPATION_OPTIONS = [
  'student',
  'artist',
  'doctor',
  'teacher',
  'musician',
  'athlete',
  'chef',
  'writer',
  'nurse',
  'engineer',
  'detective',
  'barista',
] as const;
export const PERSONALITY_OPTIONS = [
  'caring',
  'playful',
  'shy',
  'confident',
  'mysterious',
  'witty',
  'romantic',
  'adventurous',
  'sarcastic',
  'calm',
  'passionate',
  'nerdy',
] as const;

/** A character or persona as the API shows it (API.md "Bot"). */
export const BotSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    age: z.number().int(),
    kind: z.enum(BOT_KINDS),
    avatar_url: z.string().nullable(),
    description: z.string(),
    greeting: z.string(),
    occupation: z.array(z.string()),
    personality: z.array(z.string()),
    tags: z.array(z.string()),
    is_official: z.boolean(),
    visibility: z.enum(BOT_VISIBILITIES),
    author_id: z.string().nullable(),
    voice: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'Bot' });
export type Bot = z.infer<typeof BotSchema>;

/** One character with its page's extras: gallery, scenario and review state. */
export const BotDetailSchema = BotSchema.extend({
  scenario: z.string(),
  gallery: z.array(z.string()),
  review_state: z.enum(BOT_REVIEW_STATES),
  alternate_greetings: z.array(z.string()),
  creator_notes: z.string(),
}).meta({ id: 'BotDetail' });
export type BotDetail = z.infer<typeof BotDetailSchema>;

export const BotListSchema = z
  .object({ results: z.array(BotSchema), next_param: z.string().nullable() })
  .meta({ id: 'BotList' });
export type BotList = z.infer<typeof BotListSchema>;

export const BotListQuerySchema = z.object({
  size: z.coerce.number().int().min(1).max(100).default(BOTS_FIRST_PAGE_SIZE),
  c: z.string().max(300).optional(),
  tags: z
    .string()
    .max(200)
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(BOT_FILTER_TAGS, { message: 'invalid_value' }))),
});

export const BotSlugParamsSchema = z.object({
  slug: z.string().max(BOT_SLUG_MAX).regex(BOT_SLUG_PATTERN, { message: 'invalid_value' }),
});

/** "Pick at most 3 options or type free text": an array of ≤ 3 or a single free text. */
const choices = z
  .union([z.array(z.string().trim().min(1).max(60)), z.string().trim().max(200)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : v ? [v] : []))
  .refine((v) => v.length <= PERSONA_CHOICES_MAX, { message: 'too_many_items' });

/** Fields of POST /api/bot/create (JSON, or the text fields of the multipart form). */
export const BotCreateSchema = z.object({
  name: z
    .string({ message: 'name_required' })
    .trim()
    .min(1, { message: 'name_required' })
    .max(80, { message: 'invalid_value' }),
  age: z.coerce
    .number({ message: 'required' })
    .int({ message: 'invalid_value' })
    .min(MIN_CHARACTER_AGE, { message: 'invalid_value' })
    .max(200, { message: 'invalid_value' }),
  kind: z.enum(BOT_KINDS, { message: 'invalid_value' }).default('character'),
  occupation: choices,
  personality: choices,
  description: z
    .string({ message: 'required' })
    .trim()
    .min(1, { message: 'required' })
    .max(4000, { message: 'invalid_value' }),
  greeting: z.string().trim().max(2000, { message: 'invalid_value' }).default(''),
  scenario: z.string().trim().max(4000, { message: 'invalid_value' }).default(''),
  tags: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((v) => (Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().max(30, { message: 'invalid_value' })).max(10, { message: 'too_many_items' })),
  visibility: z.enum(BOT_VISIBILITIES, { message: 'invalid_value' }).default('private'),
});
export type BotCreateInput = z.input<typeof BotCreateSchema>;
export type BotCreate = z.output<typeof BotCreateSchema>;

export const BotMineQuerySchema = z.object({ kind: z.enum(BOT_KINDS).optional() });
export const BotMineListSchema = z.object({ results: z.array(BotSchema) }).meta({ id: 'BotMineList' });
