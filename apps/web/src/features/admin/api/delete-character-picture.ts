import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** DELETE /api/admin/characters/{id}/pictures/{pictureId}. */
export function useDeleteCharacterPicture() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, pictureId }: { id: string; pictureId: string }) =>
      request<AdminCharacter>(
        `/api/admin/characters/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}`,
        { method: 'DELETE' },
      ),
    onSuccess: written,
  });
}
