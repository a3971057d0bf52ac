/**
 * Waits `ms` milliseconds; an abort of `signal` ends the wait at once and rejects with the
 * signal's reason (the server's polling providers and the web's voice polling).
 */
export const sleep = (ms: number, signal?: AbortSignal) =>
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
