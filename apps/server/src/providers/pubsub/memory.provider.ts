import { HandlerRegistry, type PubSub, type PubSubHandler } from './pubsub.provider.js';

/**
 * Pub/sub inside one process: the embedded default (PGlite serves one process only).
 * Messages are delivered on a later tick, like the network implementations.
 */
export class MemoryPubSub implements PubSub {
  readonly kind = 'memory' as const;
  private readonly handlers = new HandlerRegistry();
  private closed = false;

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) return;
    queueMicrotask(() => this.handlers.dispatch(channel, message, this.onError));
  }

  async subscribe(channel: string, handler: PubSubHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    this.handlers.add(channel, handler);
    return async () => void this.handlers.remove(channel, handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
  }
}
