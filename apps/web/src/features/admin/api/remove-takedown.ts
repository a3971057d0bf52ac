import { useMutation } from '@tanstack/react-query';
import type { AdminTakedownDetail, AdminTakedownRemoveBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { TAKEDOWN_COUNT_PATH, takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/remove: takes the chosen items down; the reporter is e-mailed. */
export const removeTakedown = (id: string, body: AdminTakedownRemoveBody) =>
  request<AdminTakedownDetail>(`/api/admin/takedown/${id}/remove`, { method: 'POST', body });

export function useRemoveTakedown(id: string) {
  const written = useDecisionWritten<AdminTakedownDetail>({
    item: takedownKeys.detail(id),
    queue: takedownKeys.all,
    countPath: TAKEDOWN_COUNT_PATH,
  });
  return useMutation({ mutationFn: (body: AdminTakedownRemoveBody) => removeTakedown(id, body), onSuccess: written });
}
