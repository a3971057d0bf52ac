import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { contentKeys } from './content-keys';

/** GET /api/admin/characters/voices: the voices the TTS setup offers characters. */
export function useCharacterVoices() {
  return useQuery({
    queryKey: contentKeys.voices,
    queryFn: () =>
      request<{ voices: { id: string; sex: 'female' | 'male' }[] }>('/api/admin/characters/voices').then(
        (data) => data.voices,
      ),
    staleTime: Infinity,
  });
}
