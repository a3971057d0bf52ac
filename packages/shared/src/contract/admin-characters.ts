import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { MIN_CHARACTER_AGE } from '../constants.js';
import { BOT_SLUG_MAX, BOT_SLUG_PATTERN } from '../routes.js';
import { BotDetailSchema } from './bots.js';
import { BOT_LIMITS, BOT_VISIBILITIES } from './constants.js';

/** Longest reason an administrator gives for a rejection or an unpublish. */
/** Public pictures (the character's page) a character holds at most. */
export const ADMIN_GALLERY_MAX = 12;
/** Private pictures (sent in chat only; docs/pictures.md) a character holds at most. */
export const ADMIN_PRIVATE_PICTURES_MAX = 48;
/** Public: on the character's page; private: sent in chat only, blurred for free users until unblurred. */
export const PICTURE_VISIBILITIES = ['public', 'private'] as const;

export { CHARACTER_VOICES } from './constants.js';
export const VOICE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$/;

const text = (max: number) => freeText().trim().max(max, { message: 'invalid_value' });
const list = (itemMax: number, count: number) =>
  z
    .array(singleLine().trim().min(1).max(itemMax, { message: 'invalid_value' }))
    .max(count, { message: 'too_many_items' });

/** Every card field an administrator edits (create: all; edit: any of them). */
export const AdminCharacterInputSchema = z.object({
  name: singleLine(z.string({ message: 'name_required' }))
    .trim()
    .min(1, { message: 'name_required' })
    .max(BOT_LIMITS.name, { message: 'invalid_value' }),
  slug: z
    .string()
    .trim()
    .max(BOT_SLUG_MAX, { message: 'invalid_value' })
    .regex(BOT_SLUG_PATTERN, { message: 'invalid_value' })
    .optional(),
  age: z.coerce
    .number({ message: 'required' })
    .int({ message: 'invalid_value' })
    .min(MIN_CHARACTER_AGE, { message: 'invalid_value' })
    .max(200, { message: 'invalid_value' }),
  description: text(BOT_LIMITS.description).min(1, { message: 'required' }),
  greeting: text(BOT_LIMITS.greeting).default(''),
  alternate_greetings: z
    .array(text(BOT_LIMITS.greeting).min(1))
    .max(BOT_LIMITS.alternateGreetings, { message: 'too_many_items' })
    .default([]),
  personality_text: text(BOT_LIMITS.personalityText).default(''),
  scenario: text(BOT_LIMITS.scenario).default(''),
  example_messages: text(BOT_LIMITS.exampleMessages).default(''),
  system_prompt: text(BOT_LIMITS.systemPrompt).default(''),
  post_history_instructions: text(BOT_LIMITS.postHistoryInstructions).default(''),
  creator_notes: text(BOT_LIMITS.creatorNotes).default(''),
  tags: z
    .array(singleLine().trim().toLowerCase().min(1).max(BOT_LIMITS.tag, { message: 'invalid_value' }))
    .max(BOT_LIMITS.tags, { message: 'too_many_items' })
    .default([]),
  occupation: list(BOT_LIMITS.choice, 10).default([]),
  personality: list(BOT_LIMITS.choice, 10).default([]),
  voice: z.string().trim().regex(VOICE_PATTERN, { message: 'invalid_value' }).optional(),
  visibility: z.enum(BOT_VISIBILITIES, { message: 'invalid_value' }).default('private'),
});
export type AdminCharacterInput = z.output<typeof AdminCharacterInputSchema>;

/** An edit: any of the fields (none defaulted, so that what is not sent stays as it is). */
export const AdminCharacterPatchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(AdminCharacterInputSchema.shape).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodDefault ? schema.unwrap() : schema).optional(),
      ]),
    ) as unknown as {
      [K in keyof typeof AdminCharacterInputSchema.shape]: z.ZodOptional<z.ZodType<AdminCharacterInput[K]>>;
    },
  )
  .strict();
export type AdminCharacterPatch = Partial<AdminCharacterInput>;

export const AdminPictureSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    position: z.number().int(),
    explicit: z.boolean(),
    is_avatar: z.boolean(),
    visibility: z.enum(PICTURE_VISIBILITIES),
  })
  .meta({ id: 'AdminPicture' });

export const AdminAuthorSchema = z
  .object({ id: z.string(), name: z.string(), email: z.string(), locale: z.string() })
  .meta({ id: 'AdminAuthor' });

/** A character as the console shows it: every card field, pictures with their flags, review. */
export const AdminCharacterSchema = BotDetailSchema.extend({
  personality_text: z.string(),
  example_messages: z.string(),
  system_prompt: z.string(),
  post_history_instructions: z.string(),
  review_reason: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  avatar_explicit: z.boolean(),
  pictures_reviewed_at: z.string().nullable(),
  pictures: z.array(AdminPictureSchema),
  author: AdminAuthorSchema.nullable(),
  updated_at: z.string(),
  /** When its author deleted it (it is no longer listed; other people keep their chats), else null. */
  deleted_at: z.string().nullable(),
}).meta({ id: 'AdminCharacter' });
export type AdminCharacter = z.infer<typeof AdminCharacterSchema>;

export const AdminCharacterListQuerySchema = z.object({
  q: singleLine(z.string().trim().max(100)).optional(),
  /** `official` (default): the house's characters; `public`: every public character (to unpublish). */
  scope: z.enum(['official', 'public']).default('official'),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(50),
});

export const AdminCharacterListSchema = z
  .object({ results: z.array(AdminCharacterSchema), total: z.number().int() })
  .meta({ id: 'AdminCharacterList' });
export type AdminCharacterList = z.infer<typeof AdminCharacterListSchema>;

export const AdminPictureParamsSchema = z.object({ id: z.uuid(), pictureId: z.uuid() });

export const AdminPictureOrderSchema = z.object({
  order: z
    .array(z.uuid())
    .min(1)
    .max(ADMIN_GALLERY_MAX + ADMIN_PRIVATE_PICTURES_MAX),
});

/** A picture made public (the page) or private (sent in chat only). */
export const AdminPictureVisibilitySchema = z.object({ visibility: z.enum(PICTURE_VISIBILITIES) });

export const AdminVisibilitySchema = z.object({ visibility: z.enum(BOT_VISIBILITIES) });

export const AdminVoicesSchema = z
  .object({ voices: z.array(z.object({ id: z.string(), sex: z.enum(['female', 'male']) })) })
  .meta({ id: 'AdminVoices' });
