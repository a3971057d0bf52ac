import { RedisCommands } from '../redis-commands.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

/**
 * One hit (or ARGV[2] hits): INCRBY, and PEXPIRE when the key is new (its window starts). A key that somehow has
 * no expiry gets one, so no counter can block forever. Answers {hits, ms left}.
 */
const HIT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {count, tonumber(ARGV[1])}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type HitCommand = (key: string, windowMs: number, by: number) => Promise<[number, number]>;

/**
 * Counters in Redis (`REDIS_URL`): a small Lua script makes each hit atomic on the Redis
 * server, whose clock times the windows. Its own connection (pub/sub holds one in subscriber
 * mode); a command fails after one reconnection attempt or a second, and the caller then
 * counts in process (`ResilientWindowCounter`).
 */
export class RedisWindowCounter extends RedisCommands implements WindowCounter {
  readonly kind = 'redis' as const;

  constructor(
    url: string,
    onError: (error: unknown) => void = () => {},
    /** Prefixes every key, so that one Redis may serve several installations. */
    private readonly prefix = 'reverie:rl:',
  ) {
    super(url, onError);
    this.client.defineCommand('reverieHit', { numberOfKeys: 1, lua: HIT });
  }

  async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    const hit = (this.client as unknown as { reverieHit: HitCommand }).reverieHit.bind(this.client);
    const [count, ttlMs] = await hit(this.prefix + key, Math.max(1, Math.ceil(windowMs)), by);
    return { count: Number(count), ttlMs: Number(ttlMs) };
  }

  async peek(key: string): Promise<WindowCount> {
    const [[, count], [, ttl]] = (await this.client
      .multi()
      .get(this.prefix + key)
      .pttl(this.prefix + key)
      .exec()) as [[unknown, string | null], [unknown, number]];
    if (count === null || ttl <= 0) return { count: 0, ttlMs: 0 };
    return { count: Number(count), ttlMs: ttl };
  }
}
