import { z } from 'zod';

/** The error shape of every API failure (API.md "Conventions"). */
export const ApiErrorSchema = z
  .object({
    detail: z.string(),
    code: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiErrorSchema>;
