import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotDetail, BotUpdate } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys, chatKeys } from '../../../lib/query-keys';
import { botsQueryRoot } from './get-bots';

/**
 * PATCH /api/bot/{slug}: the author edits their character or makes it public or private (the
 * server decides the review). Its page, the user's own list, the catalogue (it may join or
 * leave it) and the chats that show its name and description are loaded again.
 */
export function useUpdateBot(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fields: BotUpdate) =>
      request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`, { method: 'PATCH', body: fields }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] });
      void client.invalidateQueries({ queryKey: botKeys.mine() });
      void client.invalidateQueries({ queryKey: botsQueryRoot });
      void client.invalidateQueries({ queryKey: chatKeys.allDetails });
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}
