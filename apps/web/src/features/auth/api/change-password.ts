import type { PasswordChangeBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/profile/password: a new password; every other session of the user ends. */
export const changePassword = (body: PasswordChangeBody) =>
  request<{ detail: string }>('/api/profile/password', { method: 'POST', body });
