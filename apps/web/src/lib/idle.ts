/**
 * Runs `run` once the main thread is idle (at the latest after `timeoutMs`); answers a cancel.
 * Without `requestIdleCallback` (Safari) it runs after `fallbackMs`.
 */
export function whenIdle(run: () => void, timeoutMs: number, fallbackMs = 2000): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(run, fallbackMs);
  return () => clearTimeout(timer);
}
