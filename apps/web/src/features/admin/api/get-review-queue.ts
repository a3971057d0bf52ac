import { useQuery } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** The navigation badge's count of the review queue. */
export const REVIEW_COUNT_PATH = '/api/admin/review/count';

/** GET /api/admin/review: public custom characters waiting for a review, oldest first. */
export function useReviewQueue() {
  return useQuery({
    queryKey: contentKeys.review,
    queryFn: () => request<{ results: AdminCharacter[] }>('/api/admin/review').then((data) => data.results),
  });
}
