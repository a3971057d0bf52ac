import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/**
 * PUT /api/admin/characters/{id}/pictures/{pictureId}/visibility: the picture goes on the
 * character's page (public) or is only sent in chat (private).
 */
export function useSetCharacterPictureVisibility() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, pictureId, visibility }: { id: string; pictureId: string; visibility: 'public' | 'private' }) =>
      request<AdminCharacter>(
        `/api/admin/characters/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}/visibility`,
        { method: 'PUT', body: { visibility } },
      ),
    onSuccess: written,
  });
}
