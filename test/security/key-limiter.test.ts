import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { authConfigSchema } from '../../src/config/auth.js';
import { createApplicationKey } from '../../src/security/create-key.js';
import { GatewaySecurity } from '../../src/security/gateway-security.js';
import { KeyLimiter } from '../../src/security/key-limiter.js';
import { MemoryKeyStore } from '../../src/store/keys/memory-key-store.js';
import { principalOf } from '../../src/security/principal.js';
import type { CounterStore } from '../../src/store/counter-store.js';
import { MemoryCounterStore } from '../../src/store/memory-counter-store.js';
import { RedisCounterStore } from '../../src/store/redis/redis-counter-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';

/** A clock the test moves; every limiter of one case reads the same one, like instances with synced clocks. */
function clock(start: number): { now: () => number; advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => (now += ms) };
}

/**
 * The limiter's behaviour over a counter store; `counters()` gives a fresh, empty namespace each call, and
 * `sibling(store)` another handle on the same namespace (a second instance's connection).
 */
function describeLimiter(name: string, counters: () => CounterStore, sibling: (store: CounterStore) => CounterStore): void {
  describe(`KeyLimiter over ${name} counters`, () => {
    it('slides a minute window and frees a slot exactly when the oldest request ages out', async () => {
      const time = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
      const limiter = new KeyLimiter({ counters: counters(), now: time.now });
      const limits = { requests_per_minute: 2 };
      expect((await limiter.admit('k', limits)).exceeded).toBeUndefined();
      time.advance(10_000);
      expect((await limiter.admit('k', limits)).exceeded).toBeUndefined();
      const refused = await limiter.admit('k', limits);
      expect(refused.exceeded).toBe('requests_per_minute');
      expect(refused.retryAfterMs).toBe(50_000);
      time.advance(50_001);
      expect((await limiter.admit('k', limits)).exceeded).toBeUndefined();
    });

    it('counts tokens and cost per UTC day and resets at midnight', async () => {
      const time = clock(Date.UTC(2026, 0, 1, 23, 59, 0));
      const limiter = new KeyLimiter({ counters: counters(), now: time.now });
      await limiter.recordUsage('k', 500, 0.5);
      expect(await limiter.today('k')).toEqual({ tokens: 500, costUsd: 0.5 });
      expect(await limiter.admit('k', { tokens_per_day: 500 })).toEqual({ exceeded: 'tokens_per_day', retryAfterMs: 60_000 });
      expect((await limiter.admit('k', { cost_per_day_usd: 0.4 })).exceeded).toBe('cost_per_day_usd');
      expect((await limiter.admit('other', { tokens_per_day: 500 })).exceeded).toBeUndefined();
      time.advance(60_000);
      expect((await limiter.admit('k', { tokens_per_day: 500, cost_per_day_usd: 0.4 })).exceeded).toBeUndefined();
      expect(await limiter.today('k')).toEqual({ tokens: 0, costUsd: 0 });
    });

    it('a request refused for its budget does not use up a slot of the minute', async () => {
      const time = clock(Date.UTC(2026, 0, 2, 8, 0, 0));
      const limiter = new KeyLimiter({ counters: counters(), now: time.now });
      await limiter.recordUsage('k', 10, 0);
      for (let index = 0; index < 5; index += 1) {
        expect((await limiter.admit('k', { tokens_per_day: 10, requests_per_minute: 1 })).exceeded).toBe('tokens_per_day');
      }
      expect((await limiter.admit('k', { requests_per_minute: 1 })).exceeded).toBeUndefined();
    });

    it('two instances on one store enforce one limit and one budget together', async () => {
      const time = clock(Date.UTC(2026, 0, 3, 9, 0, 0));
      const shared = counters();
      const first = new KeyLimiter({ counters: shared, now: time.now });
      const second = new KeyLimiter({ counters: sibling(shared), now: time.now });
      const verdicts = await Promise.all(
        Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? first : second).admit('k', { requests_per_minute: 3 })),
      );
      expect(verdicts.filter((verdict) => verdict.exceeded === undefined)).toHaveLength(3);
      await Promise.all([first.recordUsage('k', 60, 0.25), second.recordUsage('k', 40, 0.5)]);
      expect(await first.today('k')).toEqual({ tokens: 100, costUsd: 0.75 });
      expect((await second.admit('k', { tokens_per_day: 100 })).exceeded).toBe('tokens_per_day');
      // A restarted instance (a new limiter on the same counters) still knows the day.
      expect((await new KeyLimiter({ counters: sibling(shared), now: time.now }).admit('k', { cost_per_day_usd: 0.75 })).exceeded).toBe(
        'cost_per_day_usd',
      );
    });
  });
}

describeLimiter('memory', () => new MemoryCounterStore(), (store) => store);

const redisUp = await redisAvailable();
if (!redisUp) console.warn(`skipping the KeyLimiter suite over Redis counters: no server at ${redisTestUrl}`);

describe.skipIf(!redisUp)('redis', () => {
  const prefix = uniqueKeyPrefix('limits');
  const clients = [new Redis(redisTestUrl), new Redis(redisTestUrl)];
  let run = 0;
  const namespaces = new Map<CounterStore, string>();
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    for (const client of clients) client.disconnect();
  });
  describeLimiter(
    'redis',
    () => {
      const namespace = `${prefix}${(run += 1)}:`;
      const store = new RedisCounterStore(clients[0] as Redis, namespace);
      namespaces.set(store, namespace);
      return store;
    },
    (store) => new RedisCounterStore(clients[1] as Redis, namespaces.get(store) ?? ''),
  );
});

/** Counters that fail until `recover()`, as Redis does while it is away. */
class FailingCounters extends MemoryCounterStore {
  failing = true;
  override async add(name: string, amount: number, ttlMs: number): Promise<number> {
    if (this.failing) throw new Error('Connection is closed.');
    return super.add(name, amount, ttlMs);
  }
  override async get(name: string): Promise<number> {
    if (this.failing) throw new Error('Connection is closed.');
    return super.get(name);
  }
  override async admit(name: string, limit: number, windowMs: number, at: number) {
    if (this.failing) throw new Error('Connection is closed.');
    return super.admit(name, limit, windowMs, at);
  }
}

describe('KeyLimiter when its counters fail', () => {
  it('admits uncounted, warns once per outage, counts each request let through, and says when it recovers', async () => {
    const lines: { level: string; message: string }[] = [];
    const logger = {
      info: (_details: Record<string, unknown>, message: string) => lines.push({ level: 'info', message }),
      warn: (_details: Record<string, unknown>, message: string) => lines.push({ level: 'warn', message }),
    };
    const counters = new FailingCounters();
    const limiter = new KeyLimiter({ counters, logger });
    let heard = 0;
    limiter.onFailOpen(() => (heard += 1));
    for (let index = 0; index < 4; index += 1) {
      expect(await limiter.admit('k', { requests_per_minute: 1, tokens_per_day: 1 })).toEqual({ retryAfterMs: 0 });
    }
    await expect(limiter.recordUsage('k', 5, 0.1)).resolves.toBeUndefined();
    expect(limiter.failedOpen).toBe(4);
    expect(heard).toBe(4);
    expect(lines.map((line) => line.level)).toEqual(['warn']);
    counters.failing = false;
    expect((await limiter.admit('k', { requests_per_minute: 1 })).exceeded).toBeUndefined();
    expect((await limiter.admit('k', { requests_per_minute: 1 })).exceeded).toBe('requests_per_minute');
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info']);
  });
});

describe('GatewaySecurity admission', () => {
  function chatRequest(key: string): IncomingMessage {
    return { headers: { host: '127.0.0.1:8319', authorization: `Bearer ${key}` } } as unknown as IncomingMessage;
  }

  it('decides synchronously for a key without counted limits, and waits on the counters only for one with them', async () => {
    const store = new MemoryKeyStore();
    const security = new GatewaySecurity({ config: authConfigSchema.parse({}), bindHost: '127.0.0.1', dataDir: '/nonexistent', env: {}, store });
    const { secret: plain } = await createApplicationKey(store, { name: 'plain', scopes: ['chat'], limits: { models: ['a/b'] } });
    const { key: limitedKey, secret: limited } = await createApplicationKey(store, { name: 'limited', scopes: ['chat'], limits: { requests_per_minute: 1 } });

    const plainRequest = chatRequest(plain);
    const immediate = security.authorize(plainRequest, '/v1/chat/completions', 'POST');
    expect(immediate).toBeUndefined();
    expect(principalOf(plainRequest)?.kind).toBe('application');

    const first = chatRequest(limited);
    const waiting = security.authorize(first, '/v1/chat/completions', 'POST');
    expect(waiting).toBeInstanceOf(Promise);
    expect(await waiting).toBeUndefined();
    expect(principalOf(first)).toEqual({ kind: 'application', key: limitedKey });

    const second = chatRequest(limited);
    const refused = await security.authorize(second, '/v1/chat/completions', 'POST');
    expect(refused?.error.errorClass).toBe('rate_limited');
    expect(refused?.error.retryAfterMs).toBeGreaterThan(0);
    // A refused request carries no principal: nothing downstream may treat it as admitted.
    expect(principalOf(second)).toBeUndefined();
  });

  it('adds finished usage only for keys with a daily limit (each add is a Redis write in a cluster)', async () => {
    const store = new MemoryKeyStore();
    const security = new GatewaySecurity({ config: authConfigSchema.parse({}), bindHost: '127.0.0.1', dataDir: '/nonexistent', env: {}, store });
    const { key: unlimited } = await createApplicationKey(store, { name: 'unlimited', scopes: ['chat'], limits: { requests_per_minute: 5 } });
    const { key: budgeted } = await createApplicationKey(store, { name: 'budgeted', scopes: ['chat'], limits: { tokens_per_day: 1_000 } });
    const finished = (clientKeyId: string) => ({ clientKeyId, usage: { inputTokens: 30, outputTokens: 12 }, costUsd: 0.5 }) as unknown as RequestRecord;
    await security.recordUsage(finished(unlimited.id));
    await security.recordUsage(finished(budgeted.id));
    expect(await security.limiter.today(unlimited.id)).toEqual({ tokens: 0, costUsd: 0 });
    expect(await security.limiter.today(budgeted.id)).toEqual({ tokens: 42, costUsd: 0.5 });
  });
});
