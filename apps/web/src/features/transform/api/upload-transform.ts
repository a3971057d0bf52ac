import type { TransformStep, TransformStyle } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/image_transform: the photo (multipart `image`) and its style → `uploaded`. */
export function uploadTransform(photo: Blob, style: TransformStyle): Promise<TransformStep> {
  const form = new FormData();
  form.append('style', style);
  form.append('image', photo, photo instanceof File ? photo.name : 'photo');
  return request<TransformStep>('/api/image_transform', { method: 'POST', body: form });
}
