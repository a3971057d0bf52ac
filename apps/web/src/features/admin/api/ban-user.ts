import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type BanUserBody = { reason: string };

/** Bans the user with a reason; their sessions end at once. */
export const postBanUser = (userId: string, body: BanUserBody) =>
  request<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/ban`, { method: 'POST', body });

export function useBanUser(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BanUserBody) => postBanUser(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
