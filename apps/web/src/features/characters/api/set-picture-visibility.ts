import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotGallery } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { galleryKey } from './get-gallery';

/** PATCH /api/bot/{slug}/gallery/{id}: a picture made public (the page) or private (sent in chat only). */
export function useSetPictureVisibility(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, visibility }: { id: string; visibility: 'public' | 'private' }) =>
      request<BotGallery>(`/api/bot/${encodeURIComponent(slug)}/gallery/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { visibility },
      }),
    onSuccess: (gallery) => client.setQueryData(galleryKey(slug), gallery),
    onSettled: () => void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] }),
  });
}
