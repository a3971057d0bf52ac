import type { DeleteAccountBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** DELETE /api/profile: every personal datum and file of the user, confirmed with the password. */
export const deleteProfile = (body: DeleteAccountBody) => request<void>('/api/profile', { method: 'DELETE', body });
