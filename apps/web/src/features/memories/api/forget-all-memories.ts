import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemoryForgetAllResult } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { characterPath } from './paths';

/** DELETE /api/characters/{botId}/memories: every memory of the user with this character, with its history. */
export const forgetAllMemories = (botId: string) =>
  request<MemoryForgetAllResult>(characterPath(botId, 'memories'), { method: 'DELETE' });

/** Forgets everything: the character's lists load again (empty), every memory query is dropped. */
export function useForgetAllMemories(viewer: string, botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => forgetAllMemories(botId),
    onSuccess: () => {
      client.removeQueries({ queryKey: memoryKeys.details(viewer) });
      client.removeQueries({ queryKey: memoryKeys.histories(viewer) });
      void client.invalidateQueries({ queryKey: memoryKeys.character(viewer, botId) });
    },
  });
}
