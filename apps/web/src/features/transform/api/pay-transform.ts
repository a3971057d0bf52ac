import type { TransformPayment } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/image_transform/payment: 5 desires once (premium: free); 402 below 5. */
export function payTransform(id: string): Promise<TransformPayment> {
  return request<TransformPayment>('/api/image_transform/payment', { method: 'POST', body: { id } });
}
