import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminCharacterList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** GET /api/admin/characters: official characters (or every public one), with a search. */
export function useAdminCharacters(query: { q: string; scope: 'official' | 'public' }) {
  return useQuery({
    queryKey: contentKeys.characters(query),
    queryFn: () =>
      request<AdminCharacterList>('/api/admin/characters', {
        query: { scope: query.scope, size: 100, ...(query.q.trim() ? { q: query.q.trim() } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
}
