import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** The ChatMemory shape of the contract. */
export interface ChatMemory {
  memory: string;
  updated_at: string | null;
}

/** GET /api/chat/{id}/memory: what the character remembers of older messages. */
export const getChatMemory = (chatId: string) => request<ChatMemory>(`/api/chat/${encodeURIComponent(chatId)}/memory`);

export function useChatMemory(chatId: string, enabled = true) {
  return useQuery({ queryKey: chatKeys.memory(chatId), queryFn: () => getChatMemory(chatId), enabled });
}
