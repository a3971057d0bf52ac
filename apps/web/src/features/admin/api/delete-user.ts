import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type DeleteUserBody = { reason: string };

/** Deletes the account and all its data. */
export const postDeleteUser = (userId: string, body: DeleteUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/delete`, { method: 'POST', body });

export const useDeleteUser = (userId: string) => useUserWrite((body: DeleteUserBody) => postDeleteUser(userId, body));
