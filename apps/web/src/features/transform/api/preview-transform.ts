import type { TransformPreview } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/image_transform/preview: every style on a small copy of the photo (nothing stored). */
export function previewTransform(photo: Blob): Promise<TransformPreview> {
  const form = new FormData();
  form.append('image', photo, photo instanceof File ? photo.name : 'photo');
  return request<TransformPreview>('/api/image_transform/preview', { method: 'POST', body: form });
}
