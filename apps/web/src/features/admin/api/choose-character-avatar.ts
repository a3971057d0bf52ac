import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters/{id}/pictures/{pictureId}/avatar: that picture becomes the avatar. */
export function useChooseCharacterAvatar() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, pictureId }: { id: string; pictureId: string }) =>
      request<AdminCharacter>(
        `/api/admin/characters/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}/avatar`,
        { method: 'POST' },
      ),
    onSuccess: written,
  });
}
