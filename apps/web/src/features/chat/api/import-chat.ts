import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatImportResult } from '@reverie/shared';
import { fileForm, request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/**
 * POST /api/chat/import: a SillyTavern chat JSONL as a new chat with the character; `force`
 * imports a file written with another character's name.
 */
export const importChat = (input: { botId: string; file: File; force: boolean }) =>
  request<ChatImportResult>('/api/chat/import', {
    method: 'POST',
    body: fileForm(input.file, { bot_id: input.botId, ...(input.force ? { force: 'true' } : {}) }),
  });

/** Imports a chat: the new chat is cached by its id (the page opens it at once); the lists load again. */
export function useImportChat(viewer: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importChat,
    onSuccess: ({ chat }) => {
      client.setQueryData(chatKeys.detail(viewer, chat.id), chat);
      void client.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
    },
  });
}
