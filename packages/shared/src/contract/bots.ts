import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { BOT_SEARCH_MAX, BOTS_FIRST_PAGE_SIZE, MIN_CHARACTER_AGE, PERSONA_CHOICES_MAX } from '../constants.js';
import { BOT_SLUG_MAX, BOT_SLUG_PATTERN } from '../routes.js';
import {
  BOT_FILTER_TAGS,
  BOT_KINDS,
  BOT_LIMITS,
  BOT_REVIEW_STATES,
  BOT_VISIBILITIES,
  CHARACTER_VOICES,
  OCCUPATION_OPTIONS,
  PERSONALITY_OPTIONS,
} from './constants.js';

const VOICE_IDS = CHARACTER_VOICES.map((v) => v.id) as [string, ...string[]];

// The constants live in the zod-free ./constants.ts (the landing page reads them without zod).
export {
  BOT_FILTER_TAGS,
  BOT_KINDS,
  BOT_LIMITS,
  BOT_REVIEW_STATES,
  BOT_VISIBILITIES,
  OCCUPATION_OPTIONS,
  PERSONALITY_OPTIONS,
};
export type { BotFilterTag } from './constants.js';

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
  /** Why an administrator rejected it: shown to its author only (null otherwise). */
  review_reason: z.string().nullable(),
  alternate_greetings: z.array(z.string()),
  creator_notes: z.string(),
  /** Example dialogue (the card's `mes_example`). */
  example_messages: z.string(),
}).meta({ id: 'BotDetail' });
export type BotDetail = z.infer<typeof BotDetailSchema>;

export const BotListSchema = z
  .object({ results: z.array(BotSchema), next_param: z.string().nullable() })
  .meta({ id: 'BotList' });
export type BotList = z.infer<typeof BotListSchema>;

export const BotListQuerySchema = z.object({
  size: z.coerce.number().int().min(1).max(100).default(BOTS_FIRST_PAGE_SIZE),
  c: singleLine().max(300).optional(),
  /** Search words (spec §4, issue 13): each must appear in the name or in a tag; blank is no search. */
  q: singleLine(z.string().trim().max(BOT_SEARCH_MAX, { message: 'too_long' }))
    .optional()
    .transform((v) => v || undefined),
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
  .union([
    z.array(singleLine().trim().min(1).max(BOT_LIMITS.choice)).max(20, { message: 'too_many_items' }),
    freeText().trim().max(BOT_LIMITS.choicesText),
  ])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : v ? [v] : []))
  .refine((v) => v.length <= PERSONA_CHOICES_MAX, { message: 'too_many_items' });

/** Fields of POST /api/bot/create (JSON, or the text fields of the multipart form). */
export const BotCreateSchema = z.object({
  name: singleLine(z.string({ message: 'name_required' }))
    .trim()
    .min(1, { message: 'name_required' })
    .max(BOT_LIMITS.name, { message: 'invalid_value' }),
  age: z.coerce
    .number({ message: 'required' })
    .int({ message: 'invalid_value' })
    .min(MIN_CHARACTER_AGE, { message: 'invalid_value' })
    .max(200, { message: 'invalid_value' }),
  kind: z.enum(BOT_KINDS, { message: 'invalid_value' }).default('character'),
  occupation: choices,
  personality: choices,
  description: freeText(z.string({ message: 'required' }))
    .trim()
    .min(1, { message: 'required' })
    .max(BOT_LIMITS.description, { message: 'invalid_value' }),
  greeting: freeText().trim().max(BOT_LIMITS.greeting, { message: 'invalid_value' }).default(''),
  scenario: freeText().trim().max(BOT_LIMITS.scenario, { message: 'invalid_value' }).default(''),
  /** Example dialogue (the card's `mes_example`), `<START>` between examples. */
  example_messages: freeText().trim().max(BOT_LIMITS.exampleMessages, { message: 'invalid_value' }).default(''),
  /** One of CHARACTER_VOICES; absent: chosen from the texts. */
  voice: z.enum(VOICE_IDS, { message: 'invalid_value' }).optional(),
  tags: z
    .union([z.array(z.string()).max(100, { message: 'too_many_items' }), z.string().max(2000)])
    .optional()
    .transform((v) => (Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(
      z
        .array(singleLine().max(BOT_LIMITS.tag, { message: 'invalid_value' }))
        .max(BOT_LIMITS.tags, { message: 'too_many_items' }),
    ),
  visibility: z.enum(BOT_VISIBILITIES, { message: 'invalid_value' }).default('private'),
});
export type BotCreateInput = z.input<typeof BotCreateSchema>;
export type BotCreate = z.output<typeof BotCreateSchema>;

/** Fields of PATCH /api/bot/{slug} (the author's edit): any of the create fields but the kind. */
export const BotUpdateSchema = z
  .object(
    Object.fromEntries(
      Object.entries(BotCreateSchema.omit({ kind: true }).shape).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodDefault ? schema.unwrap() : schema).optional(),
      ]),
    ) as unknown as {
      [K in Exclude<keyof BotCreate, 'kind'>]: z.ZodOptional<z.ZodType<BotCreate[K], unknown>>;
    },
  )
  .strict();
export type BotUpdate = Partial<Omit<BotCreate, 'kind'>>;

/** Popular this week (Explore): listed characters and how many people chatted with each in the last 7 days. */
export const BotPopularListSchema = z
  .object({ results: z.array(BotSchema.extend({ people_week: z.number().int() })) })
  .meta({ id: 'BotPopularList' });
export type BotPopularList = z.infer<typeof BotPopularListSchema>;

/** A creator's page (`/u/{id}`): their name and public characters. */
export const CreatorPageSchema = z
  .object({ id: z.string(), name: z.string(), results: z.array(BotSchema) })
  .meta({ id: 'CreatorPage' });
export type CreatorPage = z.infer<typeof CreatorPageSchema>;
export const CreatorParamsSchema = z.object({ id: z.uuid({ message: 'invalid_value' }) });

export const BotMineQuerySchema = z.object({ kind: z.enum(BOT_KINDS).optional() });
/** One of the user's own characters or personas (My characters): its state and who chats with it. */
export const BotMineSchema = BotSchema.extend({
  review_state: z.enum(BOT_REVIEW_STATES),
  /** Why an administrator rejected or unpublished it; null otherwise. */
  review_reason: z.string().nullable(),
  /** Chats with it, everyone's (the author's included). */
  chats_count: z.number().int(),
  /** People other than its author who chat with it. */
  people_count: z.number().int(),
}).meta({ id: 'BotMine' });
export type BotMine = z.infer<typeof BotMineSchema>;
export const BotMineListSchema = z.object({ results: z.array(BotMineSchema) }).meta({ id: 'BotMineList' });

/** Pictures an author's character holds at most in its gallery (public and private together). */
export const BOT_GALLERY_MAX = 24;
/** Public pictures (the character's page) a gallery holds at most; the rest are private. */
export const BOT_GALLERY_PUBLIC_MAX = 12;
export const BOT_PICTURE_VISIBILITIES = ['public', 'private'] as const;
/** One picture of the author's gallery: public (the page) or private (sent in chat only). */
export const BotGalleryPictureSchema = z
  .object({
    id: z.string(),
    /** Signed when the picture is not public to everyone; the author sees it sharp. */
    url: z.string(),
    visibility: z.enum(BOT_PICTURE_VISIBILITIES),
    /** Judged explicit: blurred for other people until an administrator reviews the pictures. */
    explicit: z.boolean(),
  })
  .meta({ id: 'BotGalleryPicture' });
export type BotGalleryPicture = z.infer<typeof BotGalleryPictureSchema>;
export const BotGallerySchema = z
  .object({ results: z.array(BotGalleryPictureSchema), max: z.number().int(), public_max: z.number().int() })
  .meta({ id: 'BotGallery' });
export type BotGallery = z.infer<typeof BotGallerySchema>;
export const BotGalleryParamsSchema = BotSlugParamsSchema.extend({ pictureId: z.uuid({ message: 'invalid_value' }) });
export const BotGalleryUploadQuerySchema = z.object({
  visibility: z.enum(BOT_PICTURE_VISIBILITIES).default('public'),
});
export const BotGalleryVisibilitySchema = z.object({ visibility: z.enum(BOT_PICTURE_VISIBILITIES) });
