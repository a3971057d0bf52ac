import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type DeleteUserBody = { reason: string };

/** Deletes the account and all its data. */
export const postDeleteUser = (userId: string, body: DeleteUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/delete`, { method: 'POST', body });

export function useDeleteUser(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteUserBody) => postDeleteUser(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
