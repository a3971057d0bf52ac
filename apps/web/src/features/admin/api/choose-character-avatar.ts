import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters/{id}/pictures/{pictureId}/avatar: that picture becomes the avatar. */
export const useChooseCharacterAvatar = () =>
  useCharacterWrite(({ id, pictureId }: { id: string; pictureId: string }) =>
    request<AdminCharacter>(
      `/api/admin/characters/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}/avatar`,
      { method: 'POST' },
    ),
  );
