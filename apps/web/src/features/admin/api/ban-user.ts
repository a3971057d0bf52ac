import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type BanUserBody = { reason: string };

/** Bans the user with a reason; their sessions end at once. */
export const postBanUser = (userId: string, body: BanUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/ban`, { method: 'POST', body });

export const useBanUser = (userId: string) => useUserWrite((body: BanUserBody) => postBanUser(userId, body));
