import { describe, expect, it } from 'vitest';
import { JobQueue } from './job-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('JobQueue', () => {
  it('runs at most `concurrency` jobs at once, the rest in order, and each id once', async () => {
    const queue = new JobQueue(2);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const job = (id: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      order.push(id);
      await tick();
      running -= 1;
    };
    for (const id of ['a', 'b', 'c', 'd', 'e']) expect(queue.add(id, job(id))).toBe(true);
    expect(queue.add('c', job('c'))).toBe(false); // already waiting
    expect(queue.has('e')).toBe(true);
    await queue.onIdle();
    expect(most).toBe(2);
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(queue.size).toBe(0);
    expect(queue.add('a', job('a'))).toBe(true); // finished ids may run again
    await queue.onIdle();
  });

  it('keeps going after a job fails', async () => {
    const queue = new JobQueue(1);
    const done: string[] = [];
    queue.add('bad', async () => {
      throw new Error('boom');
    });
    queue.add('good', async () => void done.push('good'));
    await queue.onIdle();
    expect(done).toEqual(['good']);
  });

  it('on close aborts running jobs, drops waiting ones and accepts no more', async () => {
    const queue = new JobQueue(1);
    let aborted = false;
    let ranSecond = false;
    queue.add(
      'long',
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        ),
    );
    queue.add('next', async () => void (ranSecond = true));
    await tick();
    await queue.close();
    expect(aborted).toBe(true);
    expect(ranSecond).toBe(false);
    expect(queue.add('late', async () => undefined)).toBe(false);
  });
});
