import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminPaymentPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

export interface PaymentFilters {
  status?: string;
  provider?: string;
  user?: string;
  c?: string;
}

export const getPayments = (filters: PaymentFilters) =>
  request<AdminPaymentPage>('/api/admin/payments', { query: queryOf({ ...filters, size: 25 }) });

export function useAdminPayments(filters: PaymentFilters) {
  return useQuery({
    queryKey: adminKeys.payments({ ...filters }),
    queryFn: () => getPayments(filters),
    placeholderData: keepPreviousData,
  });
}
