import { z } from 'zod';
import { TRANSFORM_STYLES } from '../constants.js';

/** The image style transform (API.md "Image style transform", docs/transform.md). */
export const TRANSFORM_STATES = ['uploaded', 'verified', 'processing', 'ready', 'failed'] as const;
export type TransformState = (typeof TRANSFORM_STATES)[number];

export const TransformStyleSchema = z.enum(TRANSFORM_STYLES, { message: 'invalid_value' });

/** The text fields of `POST /api/image_transform` (multipart, with the file `image`). */
export const TransformUploadFieldsSchema = z.object({ style: TransformStyleSchema });

export const TransformParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const TransformVerifyBodySchema = z.object({
  id: z.string().min(1).max(100),
  /** The user confirms they own the photo or have the depicted person's consent. */
  rights_confirmed: z.literal(true, { message: 'rights_required' }),
});

export const TransformPaymentBodySchema = z.object({ id: z.string().min(1).max(100) });

/** `{id, state}`: the answer of upload and verify. */
export const TransformStepSchema = z
  .object({ id: z.string(), state: z.enum(TRANSFORM_STATES) })
  .meta({ id: 'TransformStep' });
export type TransformStep = z.infer<typeof TransformStepSchema>;

/** The answer of payment: the balance after paying (premium: unchanged). */
export const TransformPaymentSchema = z
  .object({ id: z.string(), state: z.enum(TRANSFORM_STATES), num_tokens: z.number().int() })
  .meta({ id: 'TransformPayment' });
export type TransformPayment = z.infer<typeof TransformPaymentSchema>;

/** One transform, as polled and as listed in the gallery. */
export const TransformSchema = z
  .object({
    id: z.string(),
    state: z.enum(TRANSFORM_STATES),
    style: z.enum(TRANSFORM_STYLES),
    /** The result's signed, expiring URL once `ready`; else null. */
    result_url: z.string().nullable(),
    /** The (sanitised) original's signed URL, shown beside the result. */
    original_url: z.string().nullable(),
    /** Desires this transform cost (0 for premium, 0 again after a refund). */
    charged: z.number().int(),
    /** Why it failed, a stable code (`failed` only). */
    error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Transform' });
export type Transform = z.infer<typeof TransformSchema>;

export const TransformListSchema = z.object({ results: z.array(TransformSchema) }).meta({ id: 'TransformList' });
export type TransformList = z.infer<typeof TransformListSchema>;

/** `POST /api/image_transform/preview`: every style on a small copy of the photo. */
export const TransformPreviewSchema = z
  .object({ previews: z.array(z.object({ style: z.enum(TRANSFORM_STYLES), data_url: z.string() })) })
  .meta({ id: 'TransformPreview' });
export type TransformPreview = z.infer<typeof TransformPreviewSchema>;
