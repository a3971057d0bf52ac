import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BotGallery } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { galleryKey } from './get-gallery';

/**
 * POST /api/bot/{slug}/gallery: one picture added to the author's gallery (public), judged by
 * the server like a photo. The gallery it answers replaces the cached one; the page reloads.
 */
export function useAddGalleryPicture(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return request<BotGallery>(`/api/bot/${encodeURIComponent(slug)}/gallery`, { method: 'POST', body: form });
    },
    onSuccess: (gallery) => client.setQueryData(galleryKey(slug), gallery),
    onSettled: () => void client.invalidateQueries({ queryKey: ['bots', 'detail', slug] }),
  });
}
