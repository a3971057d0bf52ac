import { z } from 'zod';
import { singleLine } from '../input.js';

export const AdminAuditQuerySchema = z.object({
  action: singleLine().max(80).optional(),
  target_type: singleLine().max(40).optional(),
  target_id: singleLine().max(120).optional(),
  c: singleLine().max(200).optional(),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminAuditEntrySchema = z
  .object({
    id: z.number().int(),
    actor_id: z.string().nullable(),
    actor_email: z.string(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminAuditEntry' });
export type AdminAuditEntry = z.infer<typeof AdminAuditEntrySchema>;

export const AdminAuditPageSchema = z
  .object({ results: z.array(AdminAuditEntrySchema), next_param: z.string().nullable() })
  .meta({ id: 'AdminAuditPage' });
export type AdminAuditPage = z.infer<typeof AdminAuditPageSchema>;
