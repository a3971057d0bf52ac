import postgres from 'postgres';
import { HandlerRegistry, type PubSub, type PubSubHandler } from './pubsub.provider.js';

/**
 * Pub/sub through PostgreSQL LISTEN/NOTIFY, for replicas sharing one PostgreSQL server and no
 * Redis. Uses its own small client: `postgres` keeps one dedicated connection for LISTEN and
 * re-subscribes after a reconnect. Payloads must stay under PostgreSQL's 8000-byte limit.
 */
export class PostgresPubSub implements PubSub {
  readonly kind = 'postgres' as const;
  private readonly sql: postgres.Sql;
  private readonly handlers = new HandlerRegistry();
  private readonly listeners = new Map<string, Promise<postgres.ListenMeta>>();
  private closed = false;

  constructor(
    url: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.sql = postgres(url, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'reverie-pubsub' },
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) return;
    await this.sql.notify(channel, message);
  }

  async subscribe(channel: string, handler: PubSubHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    if (this.handlers.add(channel, handler)) {
      const listening = this.sql.listen(channel, (message) => this.handlers.dispatch(channel, message, this.onError));
      this.listeners.set(channel, listening);
      listening.catch(() => this.listeners.delete(channel));
    }
    try {
      await this.listeners.get(channel);
    } catch (error) {
      this.handlers.remove(channel, handler);
      throw error;
    }
    return async () => {
      if (!this.handlers.remove(channel, handler)) return;
      const listening = this.listeners.get(channel);
      this.listeners.delete(channel);
      await listening?.then((meta) => meta.unlisten()).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    this.listeners.clear();
    await this.sql.end({ timeout: 5 });
  }
}
