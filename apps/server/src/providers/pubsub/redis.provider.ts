import { Redis } from 'ioredis';
import { HandlerRegistry, type PubSub, type PubSubHandler } from './pubsub.provider.js';

/**
 * Pub/sub through Redis (`REDIS_URL`): one connection publishes, one subscribes (a Redis
 * connection in subscriber mode can do nothing else). ioredis reconnects and re-subscribes
 * on its own. Channel names are prefixed so that one Redis may serve several installations.
 */
export class RedisPubSub implements PubSub {
  readonly kind = 'redis' as const;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new HandlerRegistry();
  private closed = false;

  constructor(
    url: string,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly prefix = 'reverie:',
  ) {
    // A command while Redis is unreachable waits for one reconnection at most, then fails
    // (callers log it): the caches' short lifetime bounds what a lost message costs.
    const options = { maxRetriesPerRequest: 1 };
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    for (const client of [this.publisher, this.subscriber]) client.on('error', (error) => this.onError(error));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel.startsWith(this.prefix))
        this.handlers.dispatch(channel.slice(this.prefix.length), message, this.onError);
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) return;
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: PubSubHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    if (this.handlers.add(channel, handler)) {
      try {
        await this.subscriber.subscribe(this.prefix + channel);
      } catch (error) {
        this.handlers.remove(channel, handler);
        throw error;
      }
    }
    return async () => {
      if (this.handlers.remove(channel, handler) && !this.closed)
        await this.subscriber.unsubscribe(this.prefix + channel).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
