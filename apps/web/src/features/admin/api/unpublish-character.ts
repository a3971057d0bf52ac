import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters/{id}/unpublish: any public character, with a reason. */
export function useUnpublishCharacter() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/unpublish`, {
        method: 'POST',
        body: { reason },
      }),
    onSuccess: written,
  });
}
