import { z } from 'zod';

/** GET /api/unblur/image/{id} (API.md "Pictures and voice"). */
export const UnblurParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const UnblurResponseSchema = z
  .object({
    /** The original picture's (signed, expiring) URL. */
    img_url: z.string(),
    /** The balance after unblurring. */
    num_tokens: z.number().int(),
  })
  .meta({ id: 'UnblurResponse' });
export type UnblurResponse = z.infer<typeof UnblurResponseSchema>;
