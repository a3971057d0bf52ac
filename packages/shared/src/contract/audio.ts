import { z } from 'zod';

/** POST /api/audio/{message_id} (API.md "Pictures and voice"). */
export const AudioParamsSchema = z.object({ message_id: z.string().min(1).max(100) });

export const AUDIO_STATES = ['processing', 'ready', 'error'] as const;
export type AudioState = (typeof AUDIO_STATES)[number];

export const AudioResponseSchema = z
  .object({
    /** `processing`: ask again in 1 s; `ready`: play `audio_url`; `error`: the voice failed (asking again retries). */
    state: z.enum(AUDIO_STATES),
    /** The MP3's signed, expiring URL when ready; else null. */
    audio_url: z.string().nullable(),
    /**
     * While `processing`: how far along the voice probably is, 0–1 (an estimate from the time
     * since it was asked and the text's length; never 1 before it is ready). Absent otherwise.
     */
    progress: z.number().min(0).max(1).optional(),
  })
  .meta({ id: 'AudioResponse' });
export type AudioResponse = z.infer<typeof AudioResponseSchema>;
