import { once } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamEvent } from '@reverie/shared';

/** How often an idle stream sends a comment so proxies keep it open. */
export const HEARTBEAT_MS = 15_000;

/**
 * A delta that comes less than this after the stream's last delta was written waits for the
 * rest of that time and goes out with whatever came meanwhile: a model streams one token per
 * network write, and one SSE write per token would cost the server a system call and an event
 * loop turn each (bench/README.md, issue 25). The first delta goes at once (also right after
 * the user's message was written); readers see text every 25 ms.
 */
export const DELTA_BATCH_MS = 25;

const GONE = Symbol('gone');
const LATER = Symbol('later');

/** An event source that can also hand over, at once, every event it already has. */
export type EventSource = AsyncIterator<StreamEvent> & { takeReady?(): StreamEvent[] };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One event in the text/event-stream format. */
export function formatEvent(event: StreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Writes an async iterable of events as server-sent events on a hijacked reply — the one SSE
 * writer of the chat routes. It pulls the next event only when the socket took the previous
 * one (`write` → `drain`), so a slow client makes the source wait (an `EventQueue` merges the
 * pieces waiting meanwhile) instead of filling the process's memory; the events that arrive
 * within one turn of the event loop go out in one write, and deltas close behind a write wait
 * for DELTA_BATCH_MS (one system call per batch, not one per token). The headers Fastify's
 * hooks set before the handler (CORS, security, request id) are carried over, since a
 * hijacked reply skips them. A client that goes away ends the iteration (`return`), which
 * detaches it from the reply; the reply itself goes on and is saved.
 */
export async function pipeEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  events: EventSource,
  { batchMs = DELTA_BATCH_MS }: { batchMs?: number } = {},
): Promise<void> {
  const raw = openStream(reply);
  let closed = false;
  const gone = new Promise<typeof GONE>((resolve) => {
    const done = () => {
      closed = true;
      resolve(GONE);
    };
    request.raw.once('close', done);
    raw.once('close', done);
  });
  const heartbeat = setInterval(() => {
    if (!closed && !raw.writableNeedDrain) raw.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    // The headers go out with the first event when it is ready at once (one write, not two);
    // a stream whose first event is not ready after a turn of the event loop sends them alone.
    let pending: Promise<IteratorResult<StreamEvent>> | null = events.next();
    let lastDelta = -Infinity;
    if ((await Promise.race([pending, nextTurn().then(() => LATER)])) === LATER) raw.flushHeaders?.();
    while (!closed) {
      const next = await Promise.race([pending ?? events.next(), gone]);
      pending = null;
      if (next === GONE || next.done) break;
      if (closed || raw.destroyed) break;
      let batch = [next.value];
      if (events.takeReady) {
        // Whatever else arrives in this turn of the event loop — or, for a delta that follows
        // the last delta closely, until DELTA_BATCH_MS after it — goes out in the same write.
        const wait = next.value.event === 'delta' ? lastDelta + batchMs - performance.now() : 0;
        await (wait > 0 ? Promise.race([sleep(wait), gone]) : nextTurn());
        if (closed || raw.destroyed) break;
        batch = mergeDeltas(batch.concat(events.takeReady()));
      }
      let chunk = '';
      for (const event of batch) {
        chunk += formatEvent(event);
        if (event.event === 'delta') lastDelta = performance.now();
      }
      if (!raw.write(chunk)) {
        await Promise.race([once(raw, 'drain').catch(() => undefined), gone]);
      }
    }
  } finally {
    clearInterval(heartbeat);
    await events.return?.();
    if (!raw.writableEnded && !raw.destroyed) raw.end();
  }
}

/** The events with each run of deltas of one message joined into one delta (one event to format and read). */
export function mergeDeltas(events: StreamEvent[]): StreamEvent[] {
  const merged: StreamEvent[] = [];
  for (const event of events) {
    const last = merged[merged.length - 1];
    if (event.event === 'delta' && last?.event === 'delta' && last.data.message_id === event.data.message_id)
      merged[merged.length - 1] = {
        event: 'delta',
        data: { message_id: last.data.message_id, text: last.data.text + event.data.text },
      };
    else merged.push(event);
  }
  return merged;
}

/** Takes the reply over and writes the stream's headers, with those Fastify's hooks set. */
export function openStream(reply: FastifyReply) {
  reply.hijack();
  const raw = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // nginx and friends: do not buffer the stream.
    'x-accel-buffering': 'no',
  });
  return raw;
}

/**
 * Writes a subscription's events (`{type, …}`) as server-sent events until the client goes
 * away or `subscribe`'s `end` is called — the writer of the user's and a scene's event streams.
 * Subscribed before the headers go out, so an event published meanwhile waits in a queue and
 * is not missed; `opened` runs once the queue is written; a comment every HEARTBEAT_MS (with
 * `heartbeat`) keeps proxies from closing the stream.
 */
export async function pipeSubscription<E extends { type: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  subscribe: (write: (event: E) => void, end: () => void) => Promise<() => Promise<void>>,
  hooks: { opened?: (write: (event: E) => void) => Promise<void>; heartbeat?: () => void } = {},
): Promise<void> {
  const queue: E[] = [];
  let raw: ReturnType<typeof openStream> | null = null;
  let ended: (() => void) | null = null;
  const write = (event: E) => {
    if (!raw || raw.destroyed) return void queue.push(event);
    raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  const unsubscribe = await subscribe(write, () => ended?.());
  raw = openStream(reply);
  raw.write(': connected\n\n');
  for (const event of queue.splice(0)) write(event);
  await hooks.opened?.(write);
  const heartbeat = setInterval(() => {
    if (raw && !raw.destroyed && !raw.writableNeedDrain) raw.write(': keep-alive\n\n');
    hooks.heartbeat?.();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  await new Promise<void>((resolve) => {
    ended = resolve;
    request.raw.once('close', resolve);
    raw!.once('close', resolve);
  });
  clearInterval(heartbeat);
  await unsubscribe();
  if (!raw.destroyed) raw.end();
}
