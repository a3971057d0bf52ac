import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { sleep, type AudioResponse } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** The specification's audio poll: ask again every second while the voice is `processing`. */
export const AUDIO_POLL_MS = 1000;
/** Signed audio URLs live 24 h; a cached one is used for half of that. */
const CACHE_MS = 12 * 3600_000;

/** Asks for a message's voice once (API.md: POST /api/audio/{message_id}); 402 for non-premium. */
export function requestAudio(messageId: string, signal?: AbortSignal): Promise<AudioResponse> {
  return request<AudioResponse>(`/api/audio/${encodeURIComponent(messageId)}`, { method: 'POST', signal });
}

/** The voice failed on the server (`state: "error"`); asking again starts a new attempt. */
export class VoiceFailedError extends Error {
  constructor() {
    super('voice message failed');
    this.name = 'VoiceFailedError';
  }
}

/**
 * Asks for the message's voice and repeats the request every second while it is
 * `processing`; resolves with `audio_url` when ready, rejects with VoiceFailedError on
 * `error` and with the API error (402 for non-premium…) otherwise.
 */
export async function pollAudioUrl(
  messageId: string,
  options: { signal?: AbortSignal; intervalMs?: number; onProgress?: (progress: number | null) => void } = {},
): Promise<string> {
  for (;;) {
    const answer = await requestAudio(messageId, options.signal);
    if (answer.state === 'ready' && answer.audio_url) return answer.audio_url;
    if (answer.state === 'error') throw new VoiceFailedError();
    // The server's estimate (0–1) when it gives one; null: unknown (an indeterminate spinner).
    options.onProgress?.(typeof answer.progress === 'number' ? answer.progress : null);
    await sleep(options.intervalMs ?? AUDIO_POLL_MS, options.signal);
  }
}

export const audioUrlKey = (messageId: string) => ['voice', 'audio-url', messageId] as const;
/** How far the voice of a message being prepared is (0–1), or null when the server gives no estimate. */
export const audioProgressKey = (messageId: string) => ['voice', 'progress', messageId] as const;

/**
 * The audio URLs, cached per message id in the query cache (cleared on sign-out): `cached`
 * reads one, `load` returns the cached one or polls the server — one loop per message even
 * when asked twice.
 */
export function useAudioUrls() {
  const queryClient = useQueryClient();
  const cached = useCallback(
    (messageId: string) => {
      const state = queryClient.getQueryState<string>(audioUrlKey(messageId));
      return state?.data && Date.now() - state.dataUpdatedAt < CACHE_MS ? state.data : null;
    },
    [queryClient],
  );
  const load = useCallback(
    (messageId: string) =>
      queryClient.fetchQuery({
        queryKey: audioUrlKey(messageId),
        queryFn: () =>
          pollAudioUrl(messageId, {
            // Every button of the message reads it (one request loop for all of them).
            onProgress: (progress) => queryClient.setQueryData(audioProgressKey(messageId), { progress }),
          }),
        staleTime: CACHE_MS,
        gcTime: CACHE_MS,
        retry: false,
      }),
    [queryClient],
  );
  return { cached, load };
}

/**
 * The progress of a message's voice being prepared, as the polling loop last heard it. Read
 * from the query cache without a query of its own: every reply of a long chat has a button,
 * and an observer (and a cache entry) per button costs on each one scrolled into view.
 */
export function useAudioProgress(messageId: string): number | null {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (notify: () => void) =>
      queryClient.getQueryCache().subscribe((event) => {
        const key = event.query.queryKey;
        if (key[0] === 'voice' && key[1] === 'progress' && key[2] === messageId) notify();
      }),
    [queryClient, messageId],
  );
  const read = () =>
    queryClient.getQueryData<{ progress: number | null }>(audioProgressKey(messageId))?.progress ?? null;
  return useSyncExternalStore(subscribe, read, read);
}
