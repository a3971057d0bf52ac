import { z } from 'zod';
import { freeText } from '../input.js';

/** The console's reports (`/api/admin/reports…`, docs/admin.md "Reports"). */
const Person = z.object({ id: z.string(), email: z.string(), name: z.string() });
const CharacterRef = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const AdminMessageReportsQuerySchema = z.object({
  status: z.enum(['open', 'resolved']).optional().default('open'),
});

export const AdminContextMessageSchema = z.object({
  id: z.string(),
  role: z.string(),
  text: z.string(),
  created_at: z.string(),
  picture_url: z.string().nullable(),
  /** The reported message itself. */
  reported: z.boolean(),
});
export type AdminContextMessage = z.infer<typeof AdminContextMessageSchema>;

export const AdminMessageReportSchema = z
  .object({
    id: z.number().int(),
    reason: z.string(),
    comment: z.string(),
    status: z.enum(['open', 'resolved']),
    created_at: z.string(),
    reporter: Person,
    character: CharacterRef,
    chat_id: z.string(),
    message: AdminContextMessageSchema,
    resolution: z.string().nullable(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'AdminMessageReport' });
export type AdminMessageReport = z.infer<typeof AdminMessageReportSchema>;

export const AdminMessageReportListSchema = z
  .object({ items: z.array(AdminMessageReportSchema) })
  .meta({ id: 'AdminMessageReportList' });
export type AdminMessageReportList = z.infer<typeof AdminMessageReportListSchema>;

export const AdminMessageReportDetailSchema = AdminMessageReportSchema.extend({
  /** A few messages before and after the reported one, in order (it included). */
  context: z.array(AdminContextMessageSchema),
}).meta({ id: 'AdminMessageReportDetail' });
export type AdminMessageReportDetail = z.infer<typeof AdminMessageReportDetailSchema>;

export const AdminReportIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const AdminResolveBodySchema = z
  .object({ note: freeText().trim().max(2000, 'too_long').optional().default('') })
  .meta({ id: 'AdminResolveBody' });
export type AdminResolveBody = z.input<typeof AdminResolveBodySchema>;

export const AdminSupportReportsQuerySchema = z.object({
  status: z.enum(['open', 'closed']).optional().default('open'),
});

export const AdminSupportReportSchema = z
  .object({
    id: z.string(),
    /** Where the answer goes: the report's e-mail, else its author's. */
    email: z.string().nullable(),
    subject: z.string(),
    text: z.string(),
    status: z.enum(['open', 'closed']),
    user: Person.nullable(),
    answer: z.string().nullable(),
    answered_at: z.string().nullable(),
    closed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminSupportReport' });
export type AdminSupportReport = z.infer<typeof AdminSupportReportSchema>;

export const AdminSupportReportListSchema = z
  .object({ items: z.array(AdminSupportReportSchema) })
  .meta({ id: 'AdminSupportReportList' });
export type AdminSupportReportList = z.infer<typeof AdminSupportReportListSchema>;

export const AdminSupportAnswerBodySchema = z
  .object({
    answer: freeText(z.string({ error: 'required' }))
      .trim()
      .min(1, 'required')
      .max(4000, 'too_long'),
    /** Close the report with the answer (default). */
    close: z.boolean().optional().default(true),
  })
  .meta({ id: 'AdminSupportAnswerBody' });
export type AdminSupportAnswerBody = z.input<typeof AdminSupportAnswerBodySchema>;

export const AdminUuidParamsSchema = z.object({ id: z.uuid() });
