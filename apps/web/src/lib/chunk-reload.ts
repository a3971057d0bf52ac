import { CHUNK_RELOAD_BLOCK_MS } from '@reverie/shared';

const KEY_PREFIX = 'chunk-reload:';

/** True for the errors browsers raise when a lazily loaded chunk is gone (new deploy). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Reloads the page after a chunk-load failure, at most once every 10 s per path, so a
 * deploy never leaves a blank page and a broken chunk never loops. Answers whether it
 * reloaded.
 */
export function reloadAfterChunkError(
  path = window.location.pathname,
  now = Date.now(),
  reload: () => void = () => window.location.reload(),
): boolean {
  const key = KEY_PREFIX + path;
  let last = 0;
  try {
    last = Number(window.sessionStorage.getItem(key) ?? 0);
  } catch {
    // sessionStorage unavailable: allow the reload
  }
  if (now - last < CHUNK_RELOAD_BLOCK_MS) return false;
  try {
    window.sessionStorage.setItem(key, String(now));
  } catch {
    // ignore
  }
  reload();
  return true;
}

/** Wraps a dynamic import: a chunk-load failure reloads the page (throttled). */
export function withChunkReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadAfterChunkError()) {
        // Keep the navigation pending while the page reloads.
        return new Promise<T>(() => {});
      }
      throw error;
    });
}
