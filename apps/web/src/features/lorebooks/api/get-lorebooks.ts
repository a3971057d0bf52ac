import { useQuery } from '@tanstack/react-query';
import type { Lorebook, LorebookList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { lorebookKeys } from '../../../lib/query-keys';

/** GET /api/lorebooks: the user's own books. */
export const getLorebooks = () => request<LorebookList>('/api/lorebooks');

export function useLorebooks() {
  return useQuery({ queryKey: lorebookKeys.list(), queryFn: getLorebooks });
}

/** GET /api/lorebooks/{id}, or a character's book for its author (GET /api/characters/{slug}/lorebook). */
export const getLorebook = (ref: { id: string } | { character: string }) =>
  request<Lorebook>(
    'id' in ref
      ? `/api/lorebooks/${encodeURIComponent(ref.id)}`
      : `/api/characters/${encodeURIComponent(ref.character)}/lorebook`,
  );

export function useLorebook(ref: { id: string } | { character: string }) {
  return useQuery({
    queryKey: 'id' in ref ? lorebookKeys.detail(ref.id) : lorebookKeys.character(ref.character),
    queryFn: () => getLorebook(ref),
    retry: false,
  });
}
