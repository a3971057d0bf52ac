import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotDetail, BotUpdate } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys } from '../../../lib/query-keys';

/** PATCH /api/bot/{slug}: the author edits their character (a rejected one goes back to review). */
export function useUpdateBot(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fields: BotUpdate) =>
      request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`, { method: 'PATCH', body: fields }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] });
      void client.invalidateQueries({ queryKey: botKeys.mine() });
    },
  });
}
