import { useQuery } from '@tanstack/react-query';
import type { CreatorPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export const getCreator = (id: string) => request<CreatorPage>(`/api/creators/${encodeURIComponent(id)}`);

/** GET /api/creators/{id}: a creator's name and public characters (404 when hidden or none). */
export function useCreator(id: string) {
  return useQuery({ queryKey: ['bots', 'creator', id], queryFn: () => getCreator(id), retry: false });
}
