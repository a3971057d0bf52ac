import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters/{id}/visibility: publish or unpublish an official character. */
export function useSetCharacterVisibility() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, visibility }: { id: string; visibility: 'public' | 'private' }) =>
      request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/visibility`, {
        method: 'POST',
        body: { visibility },
      }),
    onSuccess: written,
  });
}
