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

/** Why calls cannot start (`/api/config`, and `errors.reason` of the call token's 409 `stt_unavailable`). */
export const CallsUnavailableReasonSchema = z.enum([
  'stt_unavailable',
  'stt_disabled',
  'stt_model_unavailable',
  'stt_provider_unreachable',
]);
export type CallsUnavailableReason = z.infer<typeof CallsUnavailableReasonSchema>;

/** What the web app needs to know about the server it talks to. */
export const ClientConfigSchema = z
  .object({
    edition: z.enum(['reverie', 'amoura']),
    community_url: z.string().nullable(),
    support_email: z.string(),
    rewardful_key: z.string().nullable(),
    /**
     * Voice calls (docs/calls.md): whether one can start now, and why not — `stt_disabled` (no
     * speech recognition configured), `stt_model_unavailable` (the local model is missing and
     * cannot be downloaded, or does not load), `stt_provider_unreachable` (the remote
     * recognition service does not answer), `stt_unavailable` (anything else: no voice
     * activity detection in this build).
     */
    calls: z.object({ available: z.boolean(), reason: CallsUnavailableReasonSchema.nullable() }),
    /** A custom character made public is listed at once (checked by the moderation provider), not after a person's review. */
    auto_approve_characters: z.boolean(),
  })
  .meta({ id: 'ClientConfig' });
export type ClientConfig = z.infer<typeof ClientConfigSchema>;
