import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type EndSessionsBody = { reason?: string };

/** Ends every session of the user (logged out everywhere). */
export const postEndSessions = (userId: string, body: EndSessionsBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/end-sessions`, { method: 'POST', body });

export const useEndSessions = (userId: string) =>
  useUserWrite((body: EndSessionsBody) => postEndSessions(userId, body));
