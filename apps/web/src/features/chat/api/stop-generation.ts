import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** POST /api/chat/{id}/stop: stops the reply being written; its partial text is kept. */
export const stopGeneration = (chatId: string) =>
  request<void>(`/api/chat/${encodeURIComponent(chatId)}/stop`, { method: 'POST' });

export function useStopGeneration(chatId: string) {
  return useMutation({ mutationFn: () => stopGeneration(chatId) });
}
