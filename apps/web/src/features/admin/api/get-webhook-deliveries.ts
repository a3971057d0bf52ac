import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminWebhookPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

export interface WebhookFilters {
  outcome?: string;
  c?: string;
}

export const getWebhookDeliveries = (filters: WebhookFilters) =>
  request<AdminWebhookPage>('/api/admin/webhook-deliveries', { query: queryOf({ ...filters, size: 25 }) });

export function useWebhookDeliveries(filters: WebhookFilters) {
  return useQuery({
    queryKey: adminKeys.webhooks({ ...filters }),
    queryFn: () => getWebhookDeliveries(filters),
    placeholderData: keepPreviousData,
  });
}
