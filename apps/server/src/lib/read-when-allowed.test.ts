import { describe, expect, it } from 'vitest';
import { readWhenAllowed } from './read-when-allowed.js';

const later = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(value) : resolve(value)), ms));

describe('readWhenAllowed', () => {
  it('starts the read before the check has answered, and answers it once the check passes', async () => {
    const order: string[] = [];
    const check = later(20, 'ok').then(() => order.push('check'));
    const answer = await readWhenAllowed(check, async () => {
      order.push('read started');
      return 'page';
    });
    expect(answer).toBe('page');
    expect(order).toEqual(['read started', 'check']);
  });

  it("answers the check's error, never the read's result or its failure", async () => {
    const refused = new Error('not found');
    await expect(readWhenAllowed(later(5, refused, true), async () => 'secret page')).rejects.toBe(refused);
    await expect(
      readWhenAllowed(later(5, refused, true), () => later(1, new Error('invalid input syntax for type uuid'), true)),
    ).rejects.toBe(refused);
  });

  it("answers the read's own failure when the check passes", async () => {
    const broken = new Error('read failed');
    await expect(readWhenAllowed(later(1, 'ok'), () => later(5, broken, true))).rejects.toBe(broken);
  });
});
