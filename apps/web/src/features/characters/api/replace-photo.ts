import type { BotDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/**
 * PUT /api/bot/{slug}/photo: a new photo for the user's character or persona, checked by the
 * server as at creation (the edit dialog sends it before the texts; its hook reloads the lists).
 */
export function replacePhoto(slug: string, photo: File) {
  const form = new FormData();
  form.append('photo', photo);
  return request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}/photo`, { method: 'PUT', body: form });
}
