import type { AdminCharacter } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters/{id}/pictures: one gallery picture (multipart `file`). */
export const useUploadCharacterPicture = () =>
  useCharacterWrite(({ id, file }: { id: string; file: File }) =>
    request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/pictures`, {
      method: 'POST',
      body: fileForm(file),
    }),
  );
