import type { SupportBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/support: an issue report. */
export const sendSupportReport = (body: Partial<SupportBody> & { text: string }) =>
  request<{ id: string }>('/api/support', { method: 'POST', body });
