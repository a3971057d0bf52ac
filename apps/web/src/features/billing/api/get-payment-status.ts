import type { PaymentStatus } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** GET /api/billing/payments/:id: is the payment back from the checkout already credited? */
export const getPaymentStatus = (id: string) =>
  request<PaymentStatus>(`/api/billing/payments/${encodeURIComponent(id)}`);
