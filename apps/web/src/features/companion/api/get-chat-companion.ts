import { useQuery } from '@tanstack/react-query';
import type { ChatCompanion } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { companionKeys } from './keys';

/** GET /api/chat/{id}/companion: the chat's frequency and her next planned message. */
export const getChatCompanion = (chatId: string) =>
  request<ChatCompanion>(`/api/chat/${encodeURIComponent(chatId)}/companion`);

export function useChatCompanion(chatId: string, enabled = true) {
  return useQuery({ queryKey: companionKeys.chat(chatId), queryFn: () => getChatCompanion(chatId), enabled });
}
