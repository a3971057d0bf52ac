import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters/{id}/unpublish: any public character, with a reason. */
export const useUnpublishCharacter = () =>
  useCharacterWrite(({ id, reason }: { id: string; reason: string }) =>
    request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/unpublish`, {
      method: 'POST',
      body: { reason },
    }),
  );
