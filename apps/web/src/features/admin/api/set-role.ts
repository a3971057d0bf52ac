import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type SetRoleBody = { role: 'user' | 'admin'; reason?: string };

/** Promotes to administrator or demotes. */
export const postSetRole = (userId: string, body: SetRoleBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/role`, { method: 'POST', body });

export const useSetRole = (userId: string) => useUserWrite((body: SetRoleBody) => postSetRole(userId, body));
