import { request } from '../../../lib/api-client';

/** Records that a user opened the premium offer (spec §7: click_subscribe). */
export function recordSubscribeClick(from: string): Promise<void> {
  return request<void>('/api/events/click_subscribe/create', { method: 'POST', body: { from } }).catch(() => {});
}
