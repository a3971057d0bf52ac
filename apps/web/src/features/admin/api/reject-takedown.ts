import type { AdminTakedownDetail, AdminTakedownRejectBody } from '@reverie/shared';
import { useDecision } from './admin-writes';
import { TAKEDOWN_COUNT_PATH, takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/reject: the reason is e-mailed to the reporter. */
export const useRejectTakedown = (id: string) =>
  useDecision<AdminTakedownDetail, AdminTakedownRejectBody>(`/api/admin/takedown/${id}/reject`, {
    item: takedownKeys.detail(id),
    queue: takedownKeys.all,
    countPath: TAKEDOWN_COUNT_PATH,
  });
