import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkReader } from './chunk-reader.js';

describe('ChunkReader', () => {
  it('answers the chunks in order as they come, then null at the end', async () => {
    const body = new PassThrough();
    const reader = new ChunkReader(body);
    const first = reader.next();
    body.write('a');
    expect((await first)?.toString()).toBe('a');
    body.write('b');
    body.write('c');
    body.end();
    const read: string[] = [];
    for (let chunk = await reader.next(); chunk; chunk = await reader.next()) read.push(chunk.toString());
    expect(read.join('')).toBe('bc');
    expect(await reader.next()).toBeNull();
  });

  it("rejects with the stream's error once the chunks before it are read", async () => {
    const body = new PassThrough();
    const reader = new ChunkReader(body);
    body.write('a');
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy(new Error('reset'));
    expect((await reader.next())?.toString()).toBe('a');
    await expect(reader.next()).rejects.toThrow('reset');
  });

  it('rejects when the stream closes before its end', async () => {
    const body = new PassThrough();
    const reader = new ChunkReader(body);
    const next = reader.next();
    body.destroy();
    await expect(next).rejects.toThrow('closed before its end');
  });

  it('reads nothing ahead of its caller: a chunk nobody waits for pauses the body', async () => {
    const body = new PassThrough();
    const reader = new ChunkReader(body);
    body.write('a');
    body.end('b');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(body.isPaused()).toBe(true);
    expect(body.readableEnded).toBe(false);
    const read: string[] = [];
    for (let chunk = await reader.next(); chunk; chunk = await reader.next()) read.push(chunk.toString());
    expect(read.join('')).toBe('ab');
    expect(body.readableEnded).toBe(true);
  });
});
