import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalyticsClient, sanitizeProps, type QueuedEvent } from './analytics';
import { isChunkLoadError, reloadAfterChunkError } from './chunk-reload';
import { PreloadQueue } from './preload-queue';

describe('analytics client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('batches 50 events at once and flushes the rest after 5000 ms', async () => {
    const batches: QueuedEvent[][] = [];
    const client = new AnalyticsClient(async (events) => void batches.push(events), 'device-0001');
    for (let i = 0; i < 53; i += 1) client.track('page_changed', { from: '/', to: `/${i}` });
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b.length)).toEqual([50]);
    await vi.advanceTimersByTimeAsync(4999);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((b) => b.length)).toEqual([50, 3]);
    expect(batches[0]![0]).toMatchObject({
      name: 'page_changed',
      device_id: 'device-0001',
      props: { from: '/', to: '/0' },
    });
  });

  it('retries failures with backoff capped at 10 minutes and keeps the events', async () => {
    let fail = true;
    const sent: QueuedEvent[][] = [];
    const client = new AnalyticsClient(async (events) => {
      if (fail) throw new Error('offline');
      sent.push(events);
    }, 'device-0002');
    client.track('locale_select', { lang: 'de' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(client.pending).toBe(1);
    expect(client.retryDelay(1)).toBe(1000);
    expect(client.retryDelay(5)).toBe(16_000);
    expect(client.retryDelay(30)).toBe(10 * 60 * 1000);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
    expect(client.pending).toBe(0);
  });

  it('aborts a request after 90 s', async () => {
    let aborted = false;
    const client = new AnalyticsClient(
      (_events, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
      'device-0003',
    );
    client.track('page_changed');
    await vi.advanceTimersByTimeAsync(5000 + 89_999);
    expect(aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted).toBe(true);
  });

  it('cuts property strings to 255 characters and drops objects', () => {
    expect(sanitizeProps({ a: 'x'.repeat(300), n: 1, o: { deep: true } })).toEqual({ a: 'x'.repeat(255), n: 1 });
  });

  it('identifies and resets the user', async () => {
    const batches: QueuedEvent[][] = [];
    const client = new AnalyticsClient(async (events) => void batches.push(events), 'device-0004');
    client.identify('user-1');
    client.track('page_changed');
    client.reset();
    client.track('page_changed');
    await client.flush();
    expect(batches[0]!.map((e) => [e.name, e.user_id])).toEqual([
      ['identify', 'user-1'],
      ['page_changed', 'user-1'],
      ['page_changed', null],
    ]);
    expect(batches[0]![0]!.props).toEqual({});
  });

  it('keeps a device id cookie for 365 days', () => {
    const id = AnalyticsClient.ensureDeviceId();
    expect(id.length).toBeGreaterThanOrEqual(8);
    expect(AnalyticsClient.ensureDeviceId()).toBe(id);
    expect(document.cookie).toContain(`rv_device_id=${id}`);
  });
});

describe('chunk reload', () => {
  it('recognises chunk-load failures', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });

  it('reloads at most once every 10 s per path', () => {
    const reload = vi.fn();
    expect(reloadAfterChunkError('/blog', 100_000, reload)).toBe(true);
    expect(reloadAfterChunkError('/blog', 105_000, reload)).toBe(false);
    expect(reloadAfterChunkError('/chat', 105_000, reload)).toBe(true);
    expect(reloadAfterChunkError('/blog', 110_001, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });
});

describe('route preload queue', () => {
  it('runs at most 4 loads at once and each key once', async () => {
    const queue = new PreloadQueue();
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<void>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    const all = Array.from({ length: 10 }, (_, i) => queue.add(`/page-${i}`, task));
    expect(queue.add('/page-0', task)).toBe(all[0]);
    expect(running).toBe(4);
    while (releases.length) {
      releases.shift()!();
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(all);
    expect(peak).toBe(4);
  });
});

describe('rewardful', () => {
  it('loads the affiliate script once and reports rewardful_loaded', async () => {
    const { loadRewardful } = await import('./rewardful');
    const { analytics } = await import('./analytics');
    const track = vi.spyOn(analytics(), 'track');
    loadRewardful(null);
    expect(document.querySelector('script[data-rewardful]')).toBeNull();
    loadRewardful('key123');
    loadRewardful('key123');
    const scripts = document.querySelectorAll('script[data-rewardful="key123"]');
    expect(scripts).toHaveLength(1);
    scripts[0]!.dispatchEvent(new Event('load'));
    expect(track).toHaveBeenCalledWith('rewardful_loaded');
  });
});
