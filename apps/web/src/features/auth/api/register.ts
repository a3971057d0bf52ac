import type { RegisterBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/register: creates the account (the client logs in afterwards). */
export const register = (body: RegisterBody) =>
  request<{ id: string; name: string; email: string }>('/api/register', { method: 'POST', body });
