import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTakedownDetail, AdminTakedownRemoveBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/remove: takes the chosen items down; the reporter is e-mailed. */
export const removeTakedown = (id: string, body: AdminTakedownRemoveBody) =>
  request<AdminTakedownDetail>(`/api/admin/takedown/${id}/remove`, { method: 'POST', body });

export function useRemoveTakedown(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminTakedownRemoveBody) => removeTakedown(id, body),
    onSuccess: (detail) => {
      client.setQueryData(takedownKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: takedownKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count('/api/admin/takedown/count') });
    },
  });
}
