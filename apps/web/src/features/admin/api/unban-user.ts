import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type UnbanUserBody = { reason?: string };

/** Lifts a ban. */
export const postUnbanUser = (userId: string, body: UnbanUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/unban`, { method: 'POST', body });

export const useUnbanUser = (userId: string) => useUserWrite((body: UnbanUserBody) => postUnbanUser(userId, body));
