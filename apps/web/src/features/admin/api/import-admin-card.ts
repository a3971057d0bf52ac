import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters/import: a Character Card (PNG or JSON) as an official character. */
export function useImportAdminCard() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ file, visibility }: { file: File; visibility: 'public' | 'private' }) => {
      return request<AdminCharacter>('/api/admin/characters/import', {
        method: 'POST',
        body: fileForm(file, { visibility }),
      });
    },
    onSuccess: written,
  });
}
