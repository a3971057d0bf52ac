import type { AdminCharacter } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters/import: a Character Card (PNG or JSON) as an official character. */
export const useImportAdminCard = () =>
  useCharacterWrite(({ file, visibility }: { file: File; visibility: 'public' | 'private' }) => {
    return request<AdminCharacter>('/api/admin/characters/import', {
      method: 'POST',
      body: fileForm(file, { visibility }),
    });
  });
