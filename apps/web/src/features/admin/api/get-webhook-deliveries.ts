import type { AdminWebhookPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useAdminPage } from './admin-writes';
import { adminKeys, queryOf } from './keys';

export interface WebhookFilters {
  outcome?: string;
  c?: string;
}

export const getWebhookDeliveries = (filters: WebhookFilters) =>
  request<AdminWebhookPage>('/api/admin/webhook-deliveries', { query: queryOf({ ...filters, size: 25 }) });

export const useWebhookDeliveries = (filters: WebhookFilters) =>
  useAdminPage(adminKeys.webhooks({ ...filters }), () => getWebhookDeliveries(filters));
