import { useQuery } from '@tanstack/react-query';
import type { PromptTrace } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chat/{id}/messages/{messageId}/prompt: what went into that reply's prompt. */
export const getPromptTrace = (chatId: string, messageId: string) =>
  request<PromptTrace>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/prompt`);

export function usePromptTrace(chatId: string, messageId: string | null) {
  return useQuery({
    queryKey: chatKeys.promptTrace(chatId, messageId ?? ''),
    queryFn: () => getPromptTrace(chatId, messageId!),
    enabled: messageId !== null,
    retry: false,
  });
}
