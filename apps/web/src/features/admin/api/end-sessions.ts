import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type EndSessionsBody = { reason?: string };

/** Ends every session of the user (logged out everywhere). */
export const postEndSessions = (userId: string, body: EndSessionsBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/end-sessions`, { method: 'POST', body });

export function useEndSessions(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndSessionsBody) => postEndSessions(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
