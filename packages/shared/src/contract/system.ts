import { z } from 'zod';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    uptime_s: z.number(),
    version: z.string(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

export const ReadySchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: z.boolean(),
      migrations: z.boolean(),
    }),
  })
  .meta({ id: 'Ready' });
export type Ready = z.infer<typeof ReadySchema>;

/** What the web app needs to know about the server it talks to. */
export const ClientConfigSchema = z
  .object({
    edition: z.enum(['reverie', 'amoura']),
    community_url: z.string().nullable(),
    support_email: z.string(),
    rewardful_key: z.string().nullable(),
    /** Voice calls (docs/calls.md): whether one can start now, and why not (no speech recognition). */
    calls: z.object({ available: z.boolean(), reason: z.enum(['stt_unavailable']).nullable() }),
    /** A custom character made public is listed at once (checked by the moderation provider), not after a person's review. */
    auto_approve_characters: z.boolean(),
  })
  .meta({ id: 'ClientConfig' });
export type ClientConfig = z.infer<typeof ClientConfigSchema>;
