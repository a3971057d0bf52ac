import { useMutation } from '@tanstack/react-query';
import type { AdminCharacter, AdminCharacterPatch } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWritten } from './character-mutation';

/** POST /api/admin/characters (a new official character) or PATCH …/{id} (an edit). */
export function useSaveAdminCharacter() {
  const written = useCharacterWritten();
  return useMutation({
    mutationFn: ({ id, fields }: { id: string | null; fields: AdminCharacterPatch }) =>
      request<AdminCharacter>(id ? `/api/admin/characters/${encodeURIComponent(id)}` : '/api/admin/characters', {
        method: id ? 'PATCH' : 'POST',
        body: fields,
      }),
    onSuccess: written,
  });
}
