import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Memory, MemoryUpdateBody } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { memoryPath } from './paths';

/**
 * PATCH /api/memories/{id}: a correction (text, kind, date: a new revision, the old one stays
 * in the history) or pin / unpin.
 */
export const updateMemory = (id: string, body: MemoryUpdateBody) =>
  request<Memory>(memoryPath(id), { method: 'PATCH', body });

/** Saves the change: the memory's query holds the answer; its history and the lists load again. */
export function useUpdateMemory(viewer: string, botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: MemoryUpdateBody & { id: string }) => updateMemory(id, body),
    onSuccess: (memory) => {
      client.setQueryData(memoryKeys.detail(viewer, memory.id), memory);
      void client.invalidateQueries({ queryKey: memoryKeys.history(viewer, memory.id) });
      void client.invalidateQueries({ queryKey: memoryKeys.character(viewer, botId) });
    },
  });
}
