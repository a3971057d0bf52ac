import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type AdjustDesiresBody = { amount: number; reason: string };

/** Grants (amount > 0) or removes (amount < 0) desires with a reason (one ledger entry). */
export const postAdjustDesires = (userId: string, body: AdjustDesiresBody) =>
  request<{ balance: number; entry_id: number }>(`/api/admin/users/${encodeURIComponent(userId)}/desires`, {
    method: 'POST',
    body,
  });

export function useAdjustDesires(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdjustDesiresBody) => postAdjustDesires(userId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
