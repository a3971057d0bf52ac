import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type UnbanUserBody = { reason?: string };

/** Lifts a ban. */
export const postUnbanUser = (userId: string, body: UnbanUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/unban`, { method: 'POST', body });

export function useUnbanUser(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UnbanUserBody) => postUnbanUser(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
