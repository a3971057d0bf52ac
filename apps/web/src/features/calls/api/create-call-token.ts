import '../../../lib/error-texts';
import { useMutation } from '@tanstack/react-query';
import type { CallTokenBody, CallTokenResponse } from '@reverie/shared';
import { requestRaw } from '../../../lib/api-raw';

/**
 * POST /api/audio_chat/token: a short-lived token for one call in one chat (`chat_id`, or
 * `slug` for the latest chat with the character). Errors arrive as ApiRequestError: 401
 * guest, 402 `premium_required`, 409 `call_in_progress`, 429 `call_minutes_exhausted`
 * (with Retry-After), 409 `stt_unavailable` (`errors.reason`: why), 404. (Through requestRaw, which keeps Retry-After.)
 */
export async function createCallToken(body: CallTokenBody): Promise<CallTokenResponse> {
  const response = await requestRaw('/api/audio_chat/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as CallTokenResponse;
}

export function useCreateCallToken() {
  return useMutation({ mutationFn: createCallToken });
}
