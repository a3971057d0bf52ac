import { useQuery } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** GET /api/admin/characters/{id}: every card field, the pictures, the review. */
export function useAdminCharacter(id: string | null) {
  return useQuery({
    queryKey: contentKeys.character(id ?? ''),
    queryFn: () => request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id!)}`),
    enabled: Boolean(id),
  });
}
