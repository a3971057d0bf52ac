import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** PUT /api/admin/characters/{id}/pictures/order: every picture's id in the new order. */
export const useReorderCharacterPictures = () =>
  useCharacterWrite(({ id, order }: { id: string; order: string[] }) =>
    request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/pictures/order`, {
      method: 'PUT',
      body: { order },
    }),
  );
