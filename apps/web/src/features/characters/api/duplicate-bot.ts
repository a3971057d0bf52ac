import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys } from '../../../lib/query-keys';

/** POST /api/bot/{slug}/duplicate: a private copy of the user's character or persona. */
export function useDuplicateBot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) =>
      request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}/duplicate`, { method: 'POST' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: botKeys.mine() }),
  });
}
