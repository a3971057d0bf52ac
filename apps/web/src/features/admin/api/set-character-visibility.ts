import type { AdminCharacter } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useCharacterWrite } from './character-mutation';

/** POST /api/admin/characters/{id}/visibility: publish or unpublish an official character. */
export const useSetCharacterVisibility = () =>
  useCharacterWrite(({ id, visibility }: { id: string; visibility: 'public' | 'private' }) =>
    request<AdminCharacter>(`/api/admin/characters/${encodeURIComponent(id)}/visibility`, {
      method: 'POST',
      body: { visibility },
    }),
  );
