import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatCompanion, ProactiveFrequency } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { browserTimeZone, companionKeys } from './keys';

/** PUT /api/chat/{id}/companion: on with a frequency (the browser's time zone goes along), or off. */
export const setChatCompanion = (chatId: string, frequency: ProactiveFrequency) => {
  const zone = browserTimeZone();
  return request<ChatCompanion>(`/api/chat/${encodeURIComponent(chatId)}/companion`, {
    method: 'PUT',
    body: { frequency, ...(zone && frequency !== 'off' ? { time_zone: zone } : {}) },
  });
};

export function useSetChatCompanion(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (frequency: ProactiveFrequency) => setChatCompanion(chatId, frequency),
    onSuccess: (saved) => {
      client.setQueryData(companionKeys.chat(chatId), saved);
      // The time zone may have been saved with it.
      void client.invalidateQueries({ queryKey: companionKeys.settings() });
    },
  });
}
