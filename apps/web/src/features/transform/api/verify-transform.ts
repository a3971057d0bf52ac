import type { TransformStep } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/image_transform/verify: the rights attestation; 422 when the photo check refuses the photo. */
export function verifyTransform(id: string): Promise<TransformStep> {
  return request<TransformStep>('/api/image_transform/verify', {
    method: 'POST',
    body: { id, rights_confirmed: true },
  });
}
