import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters/{id}/pictures: one gallery picture (multipart `file`). */
export function useUploadCharacterPicture() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) =>
      request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/pictures`, {
        method: 'POST',
        body: fileForm(file),
      }),
    onSuccess: written,
  });
}
