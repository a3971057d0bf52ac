import { useQuery } from '@tanstack/react-query';
import type { BotGallery } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export const galleryKey = (slug: string) => ['bots', 'gallery', slug] as const;

/** GET /api/bot/{slug}/gallery: every picture of the author's character, public and private. */
export const getGallery = (slug: string) => request<BotGallery>(`/api/bot/${encodeURIComponent(slug)}/gallery`);

export function useGallery(slug: string) {
  return useQuery({ queryKey: galleryKey(slug), queryFn: () => getGallery(slug) });
}
