import type { AdminPaymentPage } from '@reverie/shared';
import { useFilteredPage } from './admin-writes';
import { adminKeys } from './keys';

export interface PaymentFilters {
  status?: string;
  provider?: string;
  user?: string;
  c?: string;
}

/** GET /api/admin/payments, 25 payments a page. */
export const useAdminPayments = (filters: PaymentFilters) =>
  useFilteredPage<AdminPaymentPage>('/api/admin/payments', adminKeys.payments({ ...filters }), { ...filters });
