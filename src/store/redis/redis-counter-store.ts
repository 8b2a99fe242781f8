import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CounterStore, WindowVerdict } from '../counter-store.js';

/** Add to a total and set its expiry only when the add created it (a day counter expires at the end of its day). */
const addScript = `
local total = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total
`;

/**
 * Sliding window in a sorted set scored by time: drop what left the window, then admit when under the limit.
 * Returns {admitted, count, oldest score}. KEYS: window. ARGV: at, windowMs, limit, member.
 */
const admitScript = `
local at = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', at - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, oldest[2] or ARGV[1]}
end
redis.call('ZADD', KEYS[1], at, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, count + 1, ARGV[1]}
`;

/** Counters in Redis under `<prefix>counter:<name>` and `<prefix>window:<name>`, each operation one Lua script. */
export class RedisCounterStore implements CounterStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {}

  async add(name: string, amount: number, ttlMs: number): Promise<number> {
    const total = await this.client.eval(addScript, 1, `${this.keyPrefix}counter:${name}`, amount, Math.max(1, Math.trunc(ttlMs)));
    return Number(total);
  }

  async get(name: string): Promise<number> {
    return Number((await this.client.get(`${this.keyPrefix}counter:${name}`)) ?? 0);
  }

  async admit(name: string, limit: number, windowMs: number, at: number): Promise<WindowVerdict> {
    const result = (await this.client.eval(
      admitScript,
      1,
      `${this.keyPrefix}window:${name}`,
      at,
      windowMs,
      limit,
      `${at}:${randomUUID()}`,
    )) as [number, number, string];
    const [admitted, count, oldest] = result;
    if (admitted === 1) return { admitted: true, count, retryAfterMs: 0 };
    return { admitted: false, count, retryAfterMs: Math.max(1, Number(oldest) + windowMs - at) };
  }

  async close(): Promise<void> {
    // The client belongs to the cluster stores, which close it once.
  }
}
