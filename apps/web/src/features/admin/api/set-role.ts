import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type SetRoleBody = { role: 'user' | 'admin'; reason?: string };

/** Promotes to administrator or demotes. */
export const postSetRole = (userId: string, body: SetRoleBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/role`, { method: 'POST', body });

export function useSetRole(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetRoleBody) => postSetRole(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
