import { useQuery } from '@tanstack/react-query';
import type { AuthorNote } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chat/{id}/author-note: the chat's author's note and the depth it goes in at. */
export const getAuthorNote = (chatId: string) =>
  request<AuthorNote>(`/api/chat/${encodeURIComponent(chatId)}/author-note`);

export function useAuthorNote(chatId: string, enabled = true) {
  return useQuery({ queryKey: chatKeys.authorNote(chatId), queryFn: () => getAuthorNote(chatId), enabled });
}
