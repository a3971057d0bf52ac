import type { AdminPaymentPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useAdminPage } from './admin-writes';
import { adminKeys, queryOf } from './keys';

export interface PaymentFilters {
  status?: string;
  provider?: string;
  user?: string;
  c?: string;
}

export const getPayments = (filters: PaymentFilters) =>
  request<AdminPaymentPage>('/api/admin/payments', { query: queryOf({ ...filters, size: 25 }) });

export const useAdminPayments = (filters: PaymentFilters) =>
  useAdminPage(adminKeys.payments({ ...filters }), () => getPayments(filters));
