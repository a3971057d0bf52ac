import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '@reverie/shared';
import { EventQueue } from './generations.js';
import { StreamingMinorsGuard } from './safety.js';
import * as safety from './safety.js';

const delta = (text: string, id = 'm1'): StreamEvent => ({ event: 'delta', data: { message_id: id, text } });

describe('EventQueue', () => {
  it('hands events over in order and merges the deltas of one message waiting in line', async () => {
    const queue = new EventQueue();
    queue.push(delta('Hel'));
    queue.push(delta('lo'));
    queue.push(delta('!', 'm2'));
    queue.push({ event: 'error', data: { code: 'timeout', detail: 'x', message_id: 'm2' } });
    queue.end();
    const seen: StreamEvent[] = [];
    for await (const event of queue) seen.push(event);
    expect(seen).toEqual([delta('Hello'), delta('!', 'm2'), expect.objectContaining({ event: 'error' })]);
  });

  it('wakes a waiting reader and runs its cleanup once when the reader leaves', async () => {
    const queue = new EventQueue();
    const cleanup = vi.fn();
    queue.onClose(cleanup);
    const next = queue.next();
    queue.push(delta('a'));
    expect(await next).toEqual({ value: delta('a'), done: false });
    await queue.return();
    await queue.return();
    expect(cleanup).toHaveBeenCalledTimes(1);
    queue.push(delta('b'));
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    // A cleanup added after the end runs at once (it would never run otherwise).
    const late = vi.fn();
    queue.onClose(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('a slow reader costs one merged delta, not one entry per piece', () => {
    const queue = new EventQueue();
    for (let i = 0; i < 10_000; i++) queue.push(delta('x'));
    const ready = queue.takeReady();
    expect(ready).toHaveLength(1);
    expect(ready[0]).toEqual(delta('x'.repeat(10_000)));
  });
});

describe('StreamingMinorsGuard', () => {
  it('reads each character a bounded number of times: linear in the length of the reply', () => {
    let read = 0;
    const guard = new StreamingMinorsGuard(64, 192, (checked) => {
      read += checked.length;
      return safety.violatesMinorsPolicy(checked);
    });
    let text = '';
    for (let i = 0; i < 5000; i++) {
      text += 'word ';
      expect(guard.violates(text)).toBe(false);
    }
    // Every 64 new characters it reads them and the 192 before: 4 × the reply at most.
    expect(read).toBeLessThanOrEqual(4 * text.length + 256);
    expect(read).toBeGreaterThanOrEqual(text.length - 64);
  });

  it('stops a reply where a minor and a sexual term meet, even split between pieces', () => {
    const guard = new StreamingMinorsGuard(8, 192);
    let text = 'It was a long day at the office and then. ';
    let refused = false;
    for (const piece of ['She is a 12-year', '-old girl and they', ' had sex together.']) {
      text += piece;
      refused ||= guard.violates(text);
    }
    expect(refused).toBe(true);
  });
});

describe('pipeEvents', () => {
  /** A hijackable reply whose socket records its writes and whether the headers went alone. */
  function fakeReply() {
    const raw = new PassThrough();
    const writes: string[] = [];
    let flushed = 0;
    const write = raw.write.bind(raw);
    Object.assign(raw, {
      writeHead: () => undefined,
      flushHeaders: () => void flushed++,
      write: (chunk: string) => {
        writes.push(chunk);
        return write(chunk);
      },
    });
    raw.resume();
    const request = { raw: new PassThrough() } as never;
    const reply = { raw, hijack: () => undefined, getHeaders: () => ({}) } as never;
    return { request, reply, writes, flushed: () => flushed };
  }

  it('sends the headers with the first event when it is ready at once, alone when it is not', async () => {
    const { pipeEvents } = await import('./sse.js');
    const ready = fakeReply();
    const queue = new EventQueue([delta('at once')]);
    queue.end();
    await pipeEvents(ready.request, ready.reply, queue);
    expect(ready.flushed()).toBe(0);
    expect(ready.writes).toHaveLength(1);

    const late = fakeReply();
    const later = new EventQueue();
    const piping = pipeEvents(late.request, late.reply, later);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(late.flushed()).toBe(1); // the client knows the stream is open before the first event
    later.push(delta('later'));
    later.end();
    await piping;
    expect(late.writes.join('')).toContain('"text":"later"');
  });

  it('waits for drain when the socket is full and sends what came meanwhile in one write', async () => {
    const { pipeEvents } = await import('./sse.js');
    const raw = new PassThrough({ highWaterMark: 16 });
    const written: string[] = [];
    const headers: Record<string, unknown> = {};
    Object.assign(raw, {
      writeHead: (_status: number, h: Record<string, unknown>) => Object.assign(headers, h),
      flushHeaders: () => undefined,
    });
    const request = { raw: new PassThrough() } as never;
    const reply = { raw, hijack: () => undefined, getHeaders: () => ({ 'x-request-id': 'r1' }) } as never;
    const queue = new EventQueue();
    const piping = pipeEvents(request, reply, queue);
    queue.push(delta('first piece, long enough to fill the socket'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The socket is full (nobody reads): these wait in the queue and merge.
    for (const piece of ['a', 'b', 'c']) queue.push(delta(piece));
    queue.end();
    raw.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    await piping;
    const body = written.join('');
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(headers['x-request-id']).toBe('r1');
    expect(body.match(/event: delta/g)).toHaveLength(2);
    expect(body).toContain('"text":"abc"');
  });
  it("writes the first delta at once even right after the user's message, and a batch's deltas as one event", async () => {
    const { pipeEvents } = await import('./sse.js');
    const { request, reply, writes } = fakeReply();
    const queue = new EventQueue([{ event: 'user_message', data: { id: 'u1' } } as never]);
    const piping = pipeEvents(request, reply, queue, { batchMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes).toHaveLength(1);
    queue.push(delta('first'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes.join('')).toContain('"text":"first"'); // not held for 200 ms behind the user's message
    for (const piece of [' a', ' b', ' c']) {
      queue.push(delta(piece));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    queue.end();
    await piping;
    expect(writes).toHaveLength(3);
    expect(writes[2]!.match(/event: delta/g)).toHaveLength(1);
    expect(writes[2]).toContain('"text":" a b c"');
  });

  it('writes the first delta at once and the deltas close behind a write together, not one write each', async () => {
    const { pipeEvents } = await import('./sse.js');
    const { request, reply, writes } = fakeReply();
    const queue = new EventQueue();
    const piping = pipeEvents(request, reply, queue, { batchMs: 40 });
    const started = performance.now();
    queue.push(delta('t0'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes.join('')).toContain('"text":"t0"'); // the first token is not held back
    // A model's pace: one token every 2 ms for 100 ms.
    for (let i = 1; i <= 50; i++) {
      queue.push(delta(` t${i}`));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    queue.end();
    await piping;
    const body = writes.join('');
    for (let i = 0; i <= 50; i++) expect(body).toContain(`t${i}`);
    // Every write after the first carries the tokens of up to 40 ms: a handful of writes, not 51.
    expect(writes.length).toBeLessThanOrEqual(Math.ceil((performance.now() - started) / 40) + 2);
    expect(writes.length).toBeGreaterThan(1);
  });
});
