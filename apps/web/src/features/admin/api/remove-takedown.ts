import type { AdminTakedownDetail, AdminTakedownRemoveBody } from '@reverie/shared';
import { useDecision } from './admin-writes';
import { TAKEDOWN_COUNT_PATH, takedownKeys } from './get-takedowns';

/** POST /api/admin/takedown/{id}/remove: takes the chosen items down; the reporter is e-mailed. */
export const useRemoveTakedown = (id: string) =>
  useDecision<AdminTakedownDetail, AdminTakedownRemoveBody>(`/api/admin/takedown/${id}/remove`, {
    item: takedownKeys.detail(id),
    queue: takedownKeys.all,
    countPath: TAKEDOWN_COUNT_PATH,
  });
