import { useMutation } from '@tanstack/react-query';
import type { AdminTakedownDetail, AdminTakedownRejectBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { TAKEDOWN_COUNT_PATH, takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/reject: the reason is e-mailed to the reporter. */
export const rejectTakedown = (id: string, body: AdminTakedownRejectBody) =>
  request<AdminTakedownDetail>(`/api/admin/takedown/${id}/reject`, { method: 'POST', body });

export function useRejectTakedown(id: string) {
  const written = useDecisionWritten<AdminTakedownDetail>({
    item: takedownKeys.detail(id),
    queue: takedownKeys.all,
    countPath: TAKEDOWN_COUNT_PATH,
  });
  return useMutation({ mutationFn: (body: AdminTakedownRejectBody) => rejectTakedown(id, body), onSuccess: written });
}
