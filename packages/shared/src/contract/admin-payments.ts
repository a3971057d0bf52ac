import { z } from 'zod';
import { singleLine } from '../input.js';
import { AdminPaymentSchema } from './admin-users.js';

export const AdminPaymentsQuerySchema = z.object({
  status: z.enum(['pending', 'paid', 'failed']).optional(),
  provider: z.enum(['sandbox', 'stripe', 'nowpayments']).optional(),
  user: z.uuid().optional(),
  c: singleLine().max(200).optional(),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminPaymentPageSchema = z
  .object({ results: z.array(AdminPaymentSchema), next_param: z.string().nullable() })
  .meta({ id: 'AdminPaymentPage' });
export type AdminPaymentPage = z.infer<typeof AdminPaymentPageSchema>;

export const WEBHOOK_OUTCOMES = ['processed', 'duplicate', 'ignored', 'rejected', 'failed'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

export const AdminWebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    provider: z.string(),
    event_id: z.string().nullable(),
    type: z.string().nullable(),
    outcome: z.enum(WEBHOOK_OUTCOMES),
    http_status: z.number().int(),
    detail: z.string().nullable(),
    payment_id: z.string().nullable(),
    received_at: z.string(),
  })
  .meta({ id: 'AdminWebhookDelivery' });
export type AdminWebhookDelivery = z.infer<typeof AdminWebhookDeliverySchema>;

export const AdminWebhookQuerySchema = z.object({
  outcome: z.enum(WEBHOOK_OUTCOMES).optional(),
  provider: singleLine().max(40).optional(),
  c: singleLine().max(200).optional(),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminWebhookPageSchema = z
  .object({ results: z.array(AdminWebhookDeliverySchema), next_param: z.string().nullable() })
  .meta({ id: 'AdminWebhookPage' });
export type AdminWebhookPage = z.infer<typeof AdminWebhookPageSchema>;

export const AdminLedgerCheckSchema = z
  .object({
    checked_users: z.number().int(),
    checked_at: z.string(),
    mismatches: z.array(
      z.object({
        user_id: z.string(),
        email: z.string().nullable(),
        balance: z.number().int(),
        ledger_sum: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'AdminLedgerCheck' });
export type AdminLedgerCheck = z.infer<typeof AdminLedgerCheckSchema>;
