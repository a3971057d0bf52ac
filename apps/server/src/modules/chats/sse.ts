import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamEvent } from '@reverie/shared';
import type { Generation } from './generations.js';

/** How often an idle stream sends a comment so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/**
 * Writes server-sent events on a hijacked reply. The headers Fastify's hooks set before the
 * handler (CORS, security, request id) are carried over, since a hijacked reply skips them.
 */
export class EventStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  /** Resolves when the client goes away (or the stream is ended). */
  readonly clientGone: Promise<void>;

  constructor(
    request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {
    reply.hijack();
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      // nginx and friends: do not buffer the stream.
      'x-accel-buffering': 'no',
    });
    reply.raw.flushHeaders?.();
    this.clientGone = new Promise((resolve) => {
      const done = () => {
        this.closed = true;
        resolve();
      };
      request.raw.once('close', done);
      reply.raw.once('close', done);
    });
    this.heartbeat = setInterval(() => this.comment('keep-alive'), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get isClosed(): boolean {
    return this.closed || this.reply.raw.writableEnded || this.reply.raw.destroyed;
  }

  send(event: StreamEvent): void {
    if (this.isClosed) return;
    this.reply.raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  private comment(text: string): void {
    if (!this.isClosed) this.reply.raw.write(`: ${text}\n\n`);
  }

  /**
   * Follows a live generation: the reply as it stands now, then its pieces and its end. A
   * client that goes away only detaches; the generation goes on and is saved.
   */
  async follow(generation: Generation): Promise<void> {
    if (generation.isFinished) return;
    this.send({ event: 'bot_message', data: generation.snapshot() });
    const detach = generation.subscribe((event) => this.send(event));
    await Promise.race([generation.done, this.clientGone]);
    detach();
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.isClosed) this.reply.raw.end();
    this.closed = true;
  }
}
