import type { AudioResponse } from '@reverie/shared';
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

const cache = new Map<string, { url: string; at: number }>();
const pending = new Map<string, Promise<string>>();

/** A cached `audio_url` of the message, if there is a fresh one. */
export function cachedAudioUrl(messageId: string): string | null {
  const entry = cache.get(messageId);
  if (!entry || Date.now() - entry.at > CACHE_MS) return null;
  return entry.url;
}

/** Forgets the cached URLs (tests, sign-out). */
export function clearAudioCache(): void {
  cache.clear();
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

async function poll(messageId: string, intervalMs: number, signal?: AbortSignal): Promise<string> {
  for (;;) {
    const answer = await requestAudio(messageId, signal);
    if (answer.state === 'ready' && answer.audio_url) {
      cache.set(messageId, { url: answer.audio_url, at: Date.now() });
      return answer.audio_url;
    }
    if (answer.state === 'error') throw new VoiceFailedError();
    await wait(intervalMs, signal);
  }
}

/**
 * The message's audio URL: from the cache, else asks the server and repeats the request
 * every second while it is `processing`; rejects with VoiceFailedError on `error` and with
 * the API error (402 for non-premium…) otherwise. One request loop per message at a time.
 */
export function loadAudioUrl(
  messageId: string,
  options: { signal?: AbortSignal; intervalMs?: number } = {},
): Promise<string> {
  const cached = cachedAudioUrl(messageId);
  if (cached) return Promise.resolve(cached);
  const running = pending.get(messageId);
  if (running) return running;
  const loading = poll(messageId, options.intervalMs ?? AUDIO_POLL_MS, options.signal).finally(() =>
    pending.delete(messageId),
  );
  pending.set(messageId, loading);
  return loading;
}
