import { request } from '../../../lib/api-client';
import { useUserWrite } from './admin-writes';

export type AdjustDesiresBody = { amount: number; reason: string };

/** Grants (amount > 0) or removes (amount < 0) desires with a reason (one ledger entry). */
export const postAdjustDesires = (userId: string, body: AdjustDesiresBody) =>
  request<{ balance: number; entry_id: number }>(`/api/admin/users/${encodeURIComponent(userId)}/desires`, {
    method: 'POST',
    body,
  });

export const useAdjustDesires = (userId: string) =>
  useUserWrite((body: AdjustDesiresBody) => postAdjustDesires(userId, body));
