import type { MessageLimiter } from './replies.service.js';

/**
 * A fixed-window per-user counter for the fair-use limit of chat messages, in this process.
 * (Replaced by the cluster's shared counter where the app wires one.)
 */
export class LocalMessageLimiter implements MessageLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(userId: string): Promise<number> {
    const now = this.now();
    const window = this.windows.get(userId);
    if (!window || now - window.start >= 60_000) {
      if (this.windows.size > 10_000)
        for (const [key, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(key);
      this.windows.set(userId, { start: now, count: 1 });
      return 0;
    }
    if (window.count >= this.perMinute) return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
    window.count++;
    return 0;
  }
}
