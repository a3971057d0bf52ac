import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotDetail, BotUpdate } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys, chatKeys } from '../../../lib/query-keys';
import { botsQueryRoot } from './get-bots';
import { replacePhoto } from './replace-photo';

export const updateBot = (slug: string, fields: BotUpdate) =>
  request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`, { method: 'PATCH', body: fields });

/**
 * PATCH /api/bot/{slug}: the author edits their character or makes it public or private (the
 * server decides the review); a new photo goes first (PUT …/photo, judged like one at creation).
 * Its page, the user's own list, the catalogue (it may join or leave it) and the chats that
 * show its name, picture and description are loaded again.
 */
export function useUpdateBot(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ photo, ...fields }: BotUpdate & { photo?: File | null }) => {
      if (photo) {
        const saved = await replacePhoto(slug, photo);
        if (!Object.keys(fields).length) return saved;
      }
      return updateBot(slug, fields);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] });
      void client.invalidateQueries({ queryKey: botKeys.mine() });
      void client.invalidateQueries({ queryKey: botsQueryRoot });
      void client.invalidateQueries({ queryKey: chatKeys.allDetails });
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}
