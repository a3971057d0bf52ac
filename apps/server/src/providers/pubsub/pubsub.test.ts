import { afterEach, describe, expect, inject, it } from 'vitest';
import { MemoryPubSub } from './memory.provider.js';
import { PostgresPubSub } from './postgres.provider.js';
import type { PubSub } from './pubsub.provider.js';
import { RedisPubSub } from './redis.provider.js';
import { createPubSub } from './index.js';

const testDb = inject('testDb');
const postgresUrl = testDb.kind === 'postgres' ? testDb.url : undefined;
const redisUrl = process.env.REDIS_URL;

const opened: PubSub[] = [];
afterEach(async () => {
  for (const pubsub of opened.splice(0)) await pubsub.close();
});

/** Resolves with the first `n` messages the handler list receives, or fails after 3 s. */
function collect(pubsub: PubSub, channel: string, n: number) {
  const received: string[] = [];
  let done: (messages: string[]) => void = () => {};
  const finished = new Promise<string[]>((resolve, reject) => {
    done = resolve;
    setTimeout(() => reject(new Error(`received only ${JSON.stringify(received)}`)), 3000);
  });
  const unsubscribe = pubsub.subscribe(channel, (message) => {
    received.push(message);
    if (received.length === n) done(received);
  });
  return { unsubscribe, finished, received };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The same behaviour for every implementation. `pair()` answers two handles that share the
 * transport (two replicas), or the same in-process bus twice.
 */
function contract(name: string, pair: () => [PubSub, PubSub], enabled = true) {
  describe.runIf(enabled)(name, () => {
    it('delivers a message to subscribers on every replica, the publisher included', async () => {
      const [a, b] = pair();
      const onA = collect(a, 'test.one', 1);
      const onB = collect(b, 'test.one', 1);
      await onA.unsubscribe;
      await onB.unsubscribe;
      await a.publish('test.one', 'hello ✓');
      expect(await onA.finished).toEqual(['hello ✓']);
      expect(await onB.finished).toEqual(['hello ✓']);
    });

    it('keeps channels apart and the order of one publisher', async () => {
      const [a, b] = pair();
      const other: string[] = [];
      await b.subscribe('test.other', (message) => other.push(message));
      const onB = collect(b, 'test.order', 3);
      await onB.unsubscribe;
      for (const message of ['1', '2', '3']) await a.publish('test.order', message);
      expect(await onB.finished).toEqual(['1', '2', '3']);
      expect(other).toEqual([]);
    });

    it('stops delivering after unsubscribe; other handlers of the channel keep theirs', async () => {
      const [a, b] = pair();
      const first: string[] = [];
      const unsubscribe = await b.subscribe('test.unsub', (message) => first.push(message));
      const second = collect(b, 'test.unsub', 2);
      await second.unsubscribe;
      await a.publish('test.unsub', 'before');
      await sleep(300);
      await unsubscribe();
      await a.publish('test.unsub', 'after');
      expect(await second.finished).toEqual(['before', 'after']);
      expect(first).toEqual(['before']);
    });

    it('a throwing handler does not stop the others', async () => {
      const [a, b] = pair();
      await b.subscribe('test.throw', () => {
        throw new Error('handler failed');
      });
      const good = collect(b, 'test.throw', 1);
      await good.unsubscribe;
      await a.publish('test.throw', 'x');
      expect(await good.finished).toEqual(['x']);
    });

    it('closes: publishing after close is a no-op and subscribing is refused', async () => {
      const [a] = pair();
      await a.close();
      await a.publish('test.closed', 'x');
      await expect(a.subscribe('test.closed', () => {})).rejects.toThrow();
    });
  });
}

contract('in process', () => {
  const bus = new MemoryPubSub();
  opened.push(bus);
  return [bus, bus];
});

contract(
  'PostgreSQL LISTEN/NOTIFY',
  () => {
    const a = new PostgresPubSub(postgresUrl!);
    const b = new PostgresPubSub(postgresUrl!);
    opened.push(a, b);
    return [a, b];
  },
  Boolean(postgresUrl),
);

contract(
  'Redis',
  () => {
    const a = new RedisPubSub(redisUrl!, () => {}, `reverie-test-${process.pid}:`);
    const b = new RedisPubSub(redisUrl!, () => {}, `reverie-test-${process.pid}:`);
    opened.push(a, b);
    return [a, b];
  },
  Boolean(redisUrl),
);

describe('createPubSub', () => {
  it('chooses Redis when REDIS_URL is set, else LISTEN/NOTIFY on PostgreSQL, else in process', async () => {
    const memory = createPubSub({}, { raw: { kind: 'pglite', client: {} as never } });
    const postgres = createPubSub(
      {},
      { raw: { kind: 'postgres', client: {} as never, url: 'postgres://127.0.0.1:1/none' } },
    );
    const redis = createPubSub({ REDIS_URL: 'redis://127.0.0.1:1' }, { raw: { kind: 'pglite', client: {} as never } });
    opened.push(memory, postgres, redis);
    expect([memory.kind, postgres.kind, redis.kind]).toEqual(['memory', 'postgres', 'redis']);
  });
});
