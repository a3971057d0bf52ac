import type { AdminCharacter, AdminCharacterPatch } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters (a new official character) or PATCH …/{id} (an edit). */
export const useSaveAdminCharacter = () =>
  useCharacterWrite(({ id, fields }: { id: string | null; fields: AdminCharacterPatch }) =>
    request<AdminCharacter>(id ? `/api/admin/characters/${encodeURIComponent(id)}` : '/api/admin/characters', {
      method: id ? 'PATCH' : 'POST',
      body: fields,
    }),
  );
