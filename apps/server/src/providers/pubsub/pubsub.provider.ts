/** Receives one message published on a channel. */
export type PubSubHandler = (message: string) => void;

/**
 * Fire-and-forget messages between the replicas of one installation (PRODUCT.md §9):
 * cache invalidations, live chat replies. Delivery is at most once and only to subscribers
 * connected at the time; whoever needs durability keeps the truth in the database and uses
 * pub/sub only to say "look again".
 */
export interface PubSub {
  /** Which implementation runs (logs, readiness, tests). */
  readonly kind: 'memory' | 'postgres' | 'redis';
  /** Sends a message to every subscriber of the channel on every replica, this one included. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `handler` for every message on the channel until the returned function is called.
   * Resolves once the subscription is active, so that a message published afterwards arrives.
   */
  subscribe(channel: string, handler: PubSubHandler): Promise<() => Promise<void>>;
  /** Ends every subscription and connection. */
  close(): Promise<void>;
}

/** Handlers per channel: shared bookkeeping of the implementations. */
export class HandlerRegistry {
  private readonly byChannel = new Map<string, Set<PubSubHandler>>();

  /** Adds a handler; true when it is the channel's first (the transport must subscribe). */
  add(channel: string, handler: PubSubHandler): boolean {
    let handlers = this.byChannel.get(channel);
    const first = !handlers;
    if (!handlers) this.byChannel.set(channel, (handlers = new Set()));
    handlers.add(handler);
    return first;
  }

  /** Removes a handler; true when the channel has none left (the transport may unsubscribe). */
  remove(channel: string, handler: PubSubHandler): boolean {
    const handlers = this.byChannel.get(channel);
    if (!handlers?.delete(handler)) return false;
    if (handlers.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  /** Calls every handler of the channel; a throwing handler never stops the others. */
  dispatch(channel: string, message: string, onError: (error: unknown) => void): void {
    for (const handler of [...(this.byChannel.get(channel) ?? [])]) {
      try {
        handler(message);
      } catch (error) {
        onError(error);
      }
    }
  }

  channels(): string[] {
    return [...this.byChannel.keys()];
  }

  clear(): void {
    this.byChannel.clear();
  }
}
