import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { ChatMemory } from './get-memory';
import { chatKeys } from './keys';

/** PUT /api/chat/{id}/memory: replaces the memory with the user's edit. */
export const updateChatMemory = (chatId: string, memory: string) =>
  request<ChatMemory>(`/api/chat/${encodeURIComponent(chatId)}/memory`, { method: 'PUT', body: { memory } });

export function useUpdateChatMemory(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (memory: string) => updateChatMemory(chatId, memory),
    onSuccess: (saved) => client.setQueryData(chatKeys.memory(chatId), saved),
  });
}
