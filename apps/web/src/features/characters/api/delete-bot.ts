import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { botKeys, chatKeys } from '../../../lib/query-keys';
import { botsQueryRoot } from './get-bots';

/**
 * DELETE /api/bot/{slug}: the author deletes a character or persona. It leaves the user's
 * lists and the catalogue; chats with it (the user's and other people's) keep their history.
 */
export function useDeleteBot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => request<null>(`/api/bot/${encodeURIComponent(slug)}`, { method: 'DELETE' }),
    onSuccess: (_done, slug) => {
      client.removeQueries({ queryKey: ['bots', 'detail', slug] });
      void client.invalidateQueries({ queryKey: botKeys.mine() });
      void client.invalidateQueries({ queryKey: botsQueryRoot });
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}
