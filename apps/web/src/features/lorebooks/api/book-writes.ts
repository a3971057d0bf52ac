import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  LoreEntry,
  LoreEntryBody,
  LoreEntryPatch,
  Lorebook,
  LorebookCreateBody,
  LorebookImportResult,
  LorebookUpdateBody,
} from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { lorebookKeys } from '../../../lib/query-keys';

const book = (id: string) => `/api/lorebooks/${encodeURIComponent(id)}`;

/** The lorebooks' writes (one call each); every one refreshes every lorebook query. */
export const lorebookCalls = {
  create: (body: LorebookCreateBody) => request<Lorebook>('/api/lorebooks', { method: 'POST', body }),
  importNew: (data: Record<string, unknown>, name?: string) =>
    request<LorebookImportResult>('/api/lorebooks/import', {
      method: 'POST',
      body: { data, ...(name ? { name } : {}) },
    }),
  update: (id: string, body: LorebookUpdateBody) => request<Lorebook>(book(id), { method: 'PATCH', body }),
  remove: (id: string) => request<null>(book(id), { method: 'DELETE' }),
  importInto: (id: string, data: Record<string, unknown>, mode: 'append' | 'replace') =>
    request<LorebookImportResult>(`${book(id)}/import`, { method: 'POST', body: { data, mode } }),
  createEntry: (id: string, body: LoreEntryBody) => request<LoreEntry>(`${book(id)}/entries`, { method: 'POST', body }),
  updateEntry: (id: string, entryId: string, body: LoreEntryPatch) =>
    request<LoreEntry>(`${book(id)}/entries/${encodeURIComponent(entryId)}`, { method: 'PATCH', body }),
  removeEntry: (id: string, entryId: string) =>
    request<null>(`${book(id)}/entries/${encodeURIComponent(entryId)}`, { method: 'DELETE' }),
  export: (id: string, format: 'world_info' | 'character_book') =>
    request<Record<string, unknown>>(`${book(id)}/export?format=${format}`),
};

/** A lorebook write as a mutation that refreshes the lorebooks (lists, books, chats' attachments). */
export function useLorebookWrite<A, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: lorebookKeys.all }),
  });
}
