import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** DELETE /api/admin/characters/{id}/pictures/{pictureId}. */
export const useDeleteCharacterPicture = () =>
  useCharacterWrite(({ id, pictureId }: { id: string; pictureId: string }) =>
    request<AdminCharacter>(
      `/api/admin/characters/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}`,
      { method: 'DELETE' },
    ),
  );
