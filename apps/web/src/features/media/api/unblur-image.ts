import { useMutation } from '@tanstack/react-query';
import type { UnblurResponse } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** Unblurs a blurred picture (API.md: GET /api/unblur/image/{id}); 402 when the balance is below 3. */
export function unblurImage(messageId: string): Promise<UnblurResponse> {
  return request<UnblurResponse>(`/api/unblur/image/${encodeURIComponent(messageId)}`);
}

export function useUnblurImage() {
  return useMutation({ mutationFn: unblurImage });
}
