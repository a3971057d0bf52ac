import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/review/{id}/approve, or …/reject with the reason the author is told. */
export const useDecideReview = () =>
  useCharacterWrite((decision: { id: string; approve: true } | { id: string; approve: false; reason: string }) =>
    request<AdminCharacter>(
      `/api/admin/review/${encodeURIComponent(decision.id)}/${decision.approve ? 'approve' : 'reject'}`,
      { method: 'POST', body: decision.approve ? {} : { reason: decision.reason } },
    ),
  );
