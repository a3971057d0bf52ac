import { z } from 'zod';

/**
 * The companion between conversations (docs/companion.md, PRODUCT.md §10): she may write
 * first, only when asked — per chat, with a frequency; quiet hours in the user's time zone;
 * a daily cap across every character; an e-mail digest as the fallback of notifications.
 */
export const PROACTIVE_FREQUENCIES = ['off', 'few_weekly', 'daily', 'several_daily'] as const;
export const ProactiveFrequencySchema = z.enum(PROACTIVE_FREQUENCIES);
export type ProactiveFrequency = z.infer<typeof ProactiveFrequencySchema>;

/** The global cap across characters: proactive messages a day at most (default 3). */
export const COMPANION_DAILY_CAP_DEFAULT = 3;
export const COMPANION_DAILY_CAP_MAX = 10;
/** Default quiet hours, the user's local time. */
export const COMPANION_QUIET_START_DEFAULT = '22:00';
export const COMPANION_QUIET_END_DEFAULT = '09:00';

/** `HH:MM`, 24-hour clock. */
export const ClockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalid_value');

/** An IANA time zone this runtime knows (`Europe/Berlin`); the browser's, detected. */
export const TimeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'invalid_value');

export const CompanionSettingsSchema = z
  .object({
    /** The user's time zone; null until the browser first says it (quiet hours then read UTC). */
    time_zone: z.string().nullable(),
    quiet_start: z.string(),
    quiet_end: z.string(),
    daily_cap: z.number().int(),
    /** "Mia wrote to you": at most one e-mail a day, only to a verified address. */
    email_digest: z.boolean(),
    /** The address is verified: the digest can be sent. */
    email_verified: z.boolean(),
  })
  .meta({ id: 'CompanionSettings' });
export type CompanionSettings = z.infer<typeof CompanionSettingsSchema>;

export const CompanionSettingsBodySchema = z
  .object({
    time_zone: TimeZoneSchema.optional(),
    quiet_start: ClockTimeSchema.optional(),
    quiet_end: ClockTimeSchema.optional(),
    daily_cap: z.number().int().min(1).max(COMPANION_DAILY_CAP_MAX).optional(),
    email_digest: z.boolean().optional(),
  })
  .strict();
export type CompanionSettingsBody = z.infer<typeof CompanionSettingsBodySchema>;

/** One chat's "she can write to me first". */
export const ChatCompanionSchema = z
  .object({
    chat_id: z.string(),
    frequency: ProactiveFrequencySchema,
    /** When her next message is planned (null: none planned — off, or paused by a care rule). */
    next_at: z.string().nullable(),
  })
  .meta({ id: 'ChatCompanion' });
export type ChatCompanion = z.infer<typeof ChatCompanionSchema>;

export const ChatCompanionBodySchema = z
  .object({
    frequency: ProactiveFrequencySchema,
    /** The browser's time zone, saved with the first opt-in when none is known yet. */
    time_zone: TimeZoneSchema.optional(),
  })
  .strict();
export type ChatCompanionBody = z.infer<typeof ChatCompanionBodySchema>;
