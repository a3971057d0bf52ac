import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes the items pushed in one turn in one statement, each caller getting its own result', async () => {
    const statements: number[][] = [];
    const queue = new GroupCommit<number, number>(async (items) => {
      statements.push(items);
      return items.map((n) => n * 10);
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => queue.push(n)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(statements).toEqual([[1, 2, 3, 4]]);
  });

  it('lines up what arrives while a statement is in flight and sends it together next', async () => {
    const statements: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = new GroupCommit<number, number>(
      async (items) => {
        statements.push(items);
        if (statements.length === 1) await held;
        return items;
      },
      { maxInFlight: 1 },
    );
    const first = queue.push(1);
    await nextTurn(); // the first statement is in flight
    const later = [2, 3, 4].map((n) => queue.push(n));
    await nextTurn();
    expect(statements).toEqual([[1]]); // held back behind the one in flight
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(statements).toEqual([[1], [2, 3, 4]]);
  });

  it('retries a failed batch item by item: only the bad item fails its caller', async () => {
    const statements: string[][] = [];
    const queue = new GroupCommit<string, string>(async (items) => {
      statements.push(items);
      if (items.includes('bad')) throw new Error('constraint violated');
      return items.map((s) => s.toUpperCase());
    });
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((s) => queue.push(s)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['A', 'rejected', 'C']);
    expect(statements[0]).toEqual(['a', 'bad', 'c']);
  });

  it('flush waits until everything pushed so far is written (shutdown loses nothing)', async () => {
    const written: number[] = [];
    const queue = new GroupCommit<number, undefined>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written.push(...items);
      return items.map(() => undefined);
    });
    for (let i = 0; i < 5; i++) void queue.push(i);
    await queue.flush();
    expect(written).toEqual([0, 1, 2, 3, 4]);
    expect(queue.pending).toBe(0);
    await queue.flush(); // nothing pending: at once
  });

  it('splits a long line into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const queue = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items;
      },
      { maxBatch: 3 },
    );
    await Promise.all(Array.from({ length: 7 }, (_, i) => queue.push(i)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
  });
});
