import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BreakerSettings, RoutingStateChannel, RoutingStateEvent, RoutingStateSnapshot } from '../routing-state-channel.js';

/**
 * One outcome into the cluster-wide window, atomically (a Lua script runs alone on the server). Two sorted sets
 * per circuit, calls and failures, scored by time; outcomes older than the window fall out. When the window holds
 * `minCalls` calls and the failure share reaches the rate, the opening is stored and the window cleared, so only
 * the call that crossed the line returns 1. Outcomes reported while the circuit is open are ignored.
 *
 * KEYS: calls, failures, open-breakers hash. ARGV: at, ok, windowMs, minCalls, failureRate, openMs, member, key.
 */
const recordOutcomeScript = `
local at = tonumber(ARGV[1])
local openedAt = tonumber(redis.call('HGET', KEYS[3], ARGV[8]) or '-1')
if openedAt >= 0 and openedAt + tonumber(ARGV[6]) > at then return 0 end
redis.call('ZADD', KEYS[1], at, ARGV[7])
if ARGV[2] == '0' then redis.call('ZADD', KEYS[2], at, ARGV[7]) end
local horizon = at - tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. horizon)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. horizon)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local calls = redis.call('ZCARD', KEYS[1])
if calls < tonumber(ARGV[4]) then return 0 end
local failures = redis.call('ZCARD', KEYS[2])
if failures / calls >= tonumber(ARGV[5]) then
  redis.call('HSET', KEYS[3], ARGV[8], ARGV[1])
  redis.call('DEL', KEYS[1], KEYS[2])
  return 1
end
return 0
`;

/** Keeps the later of two cooldowns, then announces the event. KEYS: cooldowns hash. ARGV: key, until, channel, message. */
const cooldownScript = `
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

export interface RedisRoutingStateChannelOptions {
  /** Commands: must not queue while disconnected (see `createRedisCommandClient`). */
  client: Redis;
  /** A dedicated connection in subscriber mode. */
  subscriber: Redis;
  keyPrefix: string;
  instanceId?: string;
}

function isRoutingStateEvent(value: unknown): value is RoutingStateEvent {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'breaker' || kind === 'cooldown' || kind === 'policy') && typeof (value as { origin?: unknown }).origin === 'string';
}

/**
 * The cluster channel. State lives in two hashes (`<prefix>breakers`: circuit → opened at, `<prefix>cooldowns`:
 * key → until) so an instance that starts, or reconnects after missing messages, can catch up from a snapshot;
 * changes travel on the pub/sub channel `<prefix>events` (delivery within milliseconds, at most once).
 */
export class RedisRoutingStateChannel implements RoutingStateChannel {
  readonly specificationVersion = 'v1' as const;
  readonly instanceId: string;
  readonly #client: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #channelName: string;
  readonly #listeners = new Set<(event: RoutingStateEvent) => void>();
  readonly #subscribed: Promise<unknown>;

  constructor(options: RedisRoutingStateChannelOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.#client = options.client;
    this.#subscriber = options.subscriber;
    this.#prefix = options.keyPrefix;
    this.#channelName = `${options.keyPrefix}events`;
    this.#subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.#channelName) return;
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch {
        return;
      }
      if (!isRoutingStateEvent(event) || event.origin === this.instanceId) return;
      for (const listener of this.#listeners) listener(event);
    });
    this.#subscribed = this.#subscriber.subscribe(this.#channelName).catch(() => undefined);
  }

  /** Resolves once the SUBSCRIBE went through (or failed); tests wait for it before publishing. */
  whenSubscribed(): Promise<unknown> {
    return this.#subscribed;
  }

  async recordOutcome(key: string, ok: boolean, settings: BreakerSettings, at: number): Promise<boolean> {
    const opened = await this.#client.eval(
      recordOutcomeScript,
      3,
      `${this.#prefix}breaker:calls:${key}`,
      `${this.#prefix}breaker:failures:${key}`,
      `${this.#prefix}breakers`,
      at,
      ok ? 1 : 0,
      settings.windowMs,
      settings.minCalls,
      settings.failureRate,
      settings.openMs,
      `${at}:${randomUUID()}`,
      key,
    );
    return opened === 1;
  }

  async publish(event: RoutingStateEvent): Promise<void> {
    const message = JSON.stringify(event);
    if (event.kind === 'cooldown') {
      await this.#client.eval(cooldownScript, 1, `${this.#prefix}cooldowns`, event.key, event.until, this.#channelName, message);
      return;
    }
    const transaction = this.#client.multi();
    if (event.kind === 'breaker') {
      if (event.state === 'open') transaction.hset(`${this.#prefix}breakers`, event.key, event.openedAt);
      else transaction.hdel(`${this.#prefix}breakers`, event.key);
    }
    transaction.publish(this.#channelName, message);
    const results = await transaction.exec();
    const failure = results?.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
  }

  subscribe(listener: (event: RoutingStateEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async snapshot(openMs: number, now: number): Promise<RoutingStateSnapshot> {
    const [breakers, cooldowns] = await Promise.all([
      this.#client.hgetall(`${this.#prefix}breakers`),
      this.#client.hgetall(`${this.#prefix}cooldowns`),
    ]);
    const openBreakers: Record<string, number> = {};
    for (const [key, text] of Object.entries(breakers)) {
      const openedAt = Number(text);
      if (openedAt + openMs > now) openBreakers[key] = openedAt;
    }
    const running: Record<string, number> = {};
    for (const [key, text] of Object.entries(cooldowns)) {
      const until = Number(text);
      if (until > now) running[key] = until;
    }
    // Ended cooldowns stay in the hash (one field per key and model, a bounded set): deleting them could race
    // with an instance extending one.
    return { openBreakers, cooldowns: running };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
