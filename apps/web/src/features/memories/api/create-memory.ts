import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Memory, MemoryCreateBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { characterPath } from './paths';

/**
 * POST /api/characters/{botId}/memories: a memory the user adds by hand. `merged`: the character
 * already had it (the server answers 200, not 201, and the memory is the one it had).
 */
export async function createMemory(
  botId: string,
  body: MemoryCreateBody,
): Promise<{ memory: Memory; merged: boolean }> {
  let status = 0;
  const memory = await request<Memory>(characterPath(botId, 'memories'), {
    method: 'POST',
    body,
    onResponse: ({ response }) => {
      status = response.status;
    },
  });
  return { memory, merged: status === 200 };
}

/** Adds a memory; the character's lists load again. */
export function useCreateMemory(viewer: string, botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemoryCreateBody) => createMemory(botId, body),
    onSuccess: ({ memory }) => {
      client.setQueryData(memoryKeys.detail(viewer, memory.id), memory);
      void client.invalidateQueries({ queryKey: memoryKeys.character(viewer, botId) });
    },
  });
}
