import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTakedownDetail, AdminTakedownRejectBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/reject: the reason is e-mailed to the reporter. */
export const rejectTakedown = (id: string, body: AdminTakedownRejectBody) =>
  request<AdminTakedownDetail>(`/api/admin/takedown/${id}/reject`, { method: 'POST', body });

export function useRejectTakedown(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminTakedownRejectBody) => rejectTakedown(id, body),
    onSuccess: (detail) => {
      client.setQueryData(takedownKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: takedownKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count('/api/admin/takedown/count') });
    },
  });
}
