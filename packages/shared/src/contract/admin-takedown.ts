import { z } from 'zod';
import { freeText } from '../input.js';

/** The console's takedown requests (`/api/admin/takedown…`, docs/admin.md "Takedown"). */
export const TAKEDOWN_STATUSES = ['open', 'removed', 'rejected'] as const;
export type TakedownStatus = (typeof TAKEDOWN_STATUSES)[number];

export const AdminTakedownListQuerySchema = z.object({
  status: z
    .enum([...TAKEDOWN_STATUSES, 'all'])
    .optional()
    .default('open'),
  order: z.enum(['newest', 'oldest']).optional().default('oldest'),
});
export type AdminTakedownListQuery = z.input<typeof AdminTakedownListQuerySchema>;

export const AdminTakedownSummarySchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    email: z.string(),
    status: z.enum(TAKEDOWN_STATUSES),
    item_count: z.number().int(),
    description: z.string(),
    created_at: z.string(),
    /** created_at + 48 h. */
    due_at: z.string(),
    /** Still open after its 48 hours. */
    overdue: z.boolean(),
    handled_at: z.string().nullable(),
  })
  .meta({ id: 'AdminTakedownSummary' });
export type AdminTakedownSummary = z.infer<typeof AdminTakedownSummarySchema>;

export const AdminTakedownListSchema = z
  .object({ items: z.array(AdminTakedownSummarySchema), now: z.string() })
  .meta({ id: 'AdminTakedownList' });
export type AdminTakedownList = z.infer<typeof AdminTakedownListSchema>;

const PictureSchema = z.object({ key: z.string(), url: z.string() });

/** One named item, read against what the site stores now. */
export const AdminTakedownItemSchema = z
  .object({
    /** The item as the reporter wrote it (also what `remove` names). */
    input: z.string(),
    kind: z.enum(['message', 'media', 'character', 'foreign', 'invalid']),
    /** The content exists (a removed or unknown one is not found). */
    found: z.boolean(),
    character: z
      .object({
        id: z.string(),
        slug: z.string(),
        name: z.string(),
        description: z.string(),
        author_email: z.string().nullable(),
        pictures: z.array(PictureSchema),
      })
      .nullable(),
    media: z
      .object({
        key: z.string(),
        url: z.string(),
        /** What holds it: a character's picture, a chat message, or nothing known. */
        owner: z.enum(['character', 'message', 'none']),
        owner_id: z.string().nullable(),
      })
      .nullable(),
    message: z
      .object({
        id: z.string(),
        role: z.string(),
        text: z.string(),
        created_at: z.string(),
        picture_url: z.string().nullable(),
        has_audio: z.boolean(),
        character: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
        author: z.object({ id: z.string(), email: z.string(), name: z.string() }),
      })
      .nullable(),
  })
  .meta({ id: 'AdminTakedownItem' });
export type AdminTakedownItem = z.infer<typeof AdminTakedownItemSchema>;

export const AdminTakedownDetailSchema = AdminTakedownSummarySchema.extend({
  signature: z.string(),
  locale: z.string(),
  resolution: z.string().nullable(),
  removed: z.record(z.string(), z.unknown()).nullable(),
  handled_by: z.string().nullable(),
  items: z.array(AdminTakedownItemSchema),
}).meta({ id: 'AdminTakedownDetail' });
export type AdminTakedownDetail = z.infer<typeof AdminTakedownDetailSchema>;

export const AdminTakedownRemoveBodySchema = z
  .object({
    /** The items (their `input`) to take down. */
    items: z.array(z.string().max(2000)).min(1, 'takedown_items_required').max(50, 'too_many_items'),
    /** Written to the reporter and kept as the resolution. */
    note: freeText().trim().max(2000, 'too_long').optional().default(''),
  })
  .meta({ id: 'AdminTakedownRemoveBody' });
export type AdminTakedownRemoveBody = z.input<typeof AdminTakedownRemoveBodySchema>;

export const AdminTakedownRejectBodySchema = z
  .object({
    reason: freeText(z.string({ error: 'required' }))
      .trim()
      .min(1, 'required')
      .max(2000, 'too_long'),
  })
  .meta({ id: 'AdminTakedownRejectBody' });
export type AdminTakedownRejectBody = z.infer<typeof AdminTakedownRejectBodySchema>;

/** Open takedown requests, and how many of them are past their 48 hours (the overview flags them). */
export const AdminTakedownCountSchema = z
  .object({ count: z.number().int(), overdue: z.number().int() })
  .meta({ id: 'AdminTakedownCount' });
export type AdminTakedownCount = z.infer<typeof AdminTakedownCountSchema>;
