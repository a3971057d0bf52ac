import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthorNote } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** PUT /api/chat/{id}/author-note: the note ('' for none) and its depth (0–100). */
export const updateAuthorNote = (chatId: string, note: AuthorNote) =>
  request<AuthorNote>(`/api/chat/${encodeURIComponent(chatId)}/author-note`, { method: 'PUT', body: note });

export function useUpdateAuthorNote(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: AuthorNote) => updateAuthorNote(chatId, note),
    onSuccess: (saved) => client.setQueryData(chatKeys.authorNote(chatId), saved),
  });
}
