import { request } from '../../../lib/api-client';

/** POST /api/email/unsubscribe with the signed token of the mail's link. */
export const unsubscribe = (token: string) =>
  request<{ detail: string }>('/api/email/unsubscribe', { method: 'POST', body: { token } });
