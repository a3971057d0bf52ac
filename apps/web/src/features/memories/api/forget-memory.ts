import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { MemoryKind, MemoryList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { memoryPath } from './paths';

/** DELETE /api/memories/{id}: the memory and its history are deleted for good. */
export const forgetMemory = (id: string) => request<void>(memoryPath(id), { method: 'DELETE' });

const lessOne = (counts: NonNullable<MemoryList['counts']>, kind: MemoryKind): MemoryList['counts'] => ({
  ...counts,
  [kind]: Math.max(0, (counts[kind] ?? 0) - 1),
});

/**
 * Forgets one memory: it leaves the loaded lists at once (no flash of it before they load
 * again), its own queries are dropped.
 */
export function useForgetMemory(viewer: string, botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: forgetMemory,
    onSuccess: (_nothing, id) => {
      const forgotten = client
        .getQueriesData<InfiniteData<MemoryList>>({ queryKey: memoryKeys.character(viewer, botId) })
        .flatMap(([, data]) => (data && 'pages' in data ? data.pages.flatMap((page) => page.results) : []))
        .find((m) => m.id === id);
      client.setQueriesData<InfiniteData<MemoryList>>({ queryKey: memoryKeys.character(viewer, botId) }, (data) =>
        data && 'pages' in data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                results: page.results.filter((m) => m.id !== id),
                counts: page.counts && forgotten ? lessOne(page.counts, forgotten.kind) : page.counts,
              })),
            }
          : data,
      );
      client.removeQueries({ queryKey: memoryKeys.detail(viewer, id) });
      client.removeQueries({ queryKey: memoryKeys.history(viewer, id) });
      void client.invalidateQueries({ queryKey: memoryKeys.character(viewer, botId) });
    },
  });
}
