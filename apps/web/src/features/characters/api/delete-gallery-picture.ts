import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotGallery } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { galleryKey } from './get-gallery';

/** DELETE /api/bot/{slug}/gallery/{id}: the picture and its file are deleted. */
export function useDeleteGalleryPicture(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request<BotGallery>(`/api/bot/${encodeURIComponent(slug)}/gallery/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
    onSuccess: (gallery) => client.setQueryData(galleryKey(slug), gallery),
    onSettled: () => void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] }),
  });
}
