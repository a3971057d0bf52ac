import type { AdminWebhookPage } from '@reverie/shared';
import { useFilteredPage } from './admin-writes';
import { adminKeys } from './keys';

export interface WebhookFilters {
  outcome?: string;
  c?: string;
}

/** GET /api/admin/webhook-deliveries, 25 deliveries a page. */
export const useWebhookDeliveries = (filters: WebhookFilters) =>
  useFilteredPage<AdminWebhookPage>('/api/admin/webhook-deliveries', adminKeys.webhooks({ ...filters }), {
    ...filters,
  });
