import { request } from '../../../lib/api-client';

/** DELETE /api/profile: every personal datum and file of the user. */
export const deleteProfile = () => request<void>('/api/profile', { method: 'DELETE' });
