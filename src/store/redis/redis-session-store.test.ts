import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SharedStateHealth } from './redis-health.js';
import { createRedisCommandClient } from './redis-connection.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';
import { MemorySessionStore } from '../memory/memory-session-store.js';
import { FailOpenSessionStore } from './fail-open-session-store.js';
import { RedisSessionStore } from './redis-session-store.js';
import { describeSessionStoreContract } from '../session-store.contract.js';

describeSessionStoreContract('memory', ({ ttlMs, now }) => new MemorySessionStore({ ttlMs, maxSessions: 1000, now }));

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis session store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis session store', () => {
  const prefix = uniqueKeyPrefix('sessions');
  const client = new Redis(redisTestUrl);
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  let run = 0;
  describeSessionStoreContract(
    'redis',
    ({ ttlMs, now }) => {
      run += 1;
      return new RedisSessionStore({ client, keyPrefix: `${prefix}${run}:`, ttlMs, now });
    },
    'server',
  );

  it('keeps a whole session record under one key', async () => {
    const keyPrefix = `${prefix}one-key:`;
    const store = new RedisSessionStore({ client, keyPrefix, ttlMs: 60_000 });
    await store.set('s', {
      toolsets: ['web'],
      narrowed: true,
      affinity: { deployment: 'local/gpt-test', expiresAt: Date.now() + 60_000 },
      topic: { topic: 'math', turns: 1 },
      nudge: { promptTokens: 10, sent: [], seenAt: 0 },
      promptCache: { lastSeenAt: 0, ttl: '5m' },
      updatedAt: 0,
    });
    expect(await client.keys(`${keyPrefix}*`)).toEqual([`${keyPrefix}session:s`]);
  });

  it('a session written through one instance is read byte-identical through another', async () => {
    const other = new Redis(redisTestUrl);
    try {
      const writer = new RedisSessionStore({ client, keyPrefix: `${prefix}shared:`, ttlMs: 60_000 });
      const reader = new RedisSessionStore({ client: other, keyPrefix: `${prefix}shared:`, ttlMs: 60_000 });
      await writer.set('s', { toolsets: ['terminal', 'web', 'files'], narrowed: true, updatedAt: 0 });
      expect(JSON.stringify((await reader.get('s'))?.toolsets)).toBe('["terminal","web","files"]');
    } finally {
      other.disconnect();
    }
  });
});

describe('fail-open session store', () => {
  it('falls back to local sessions while the shared store is unreachable, and reports it', async () => {
    // Port 1 on loopback refuses connections: Redis is "down" for this client from the start.
    const client = createRedisCommandClient({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    client.on('error', () => undefined);
    const warnings: string[] = [];
    const health = new SharedStateHealth('redis', { info() {}, warn: (_details, message) => warnings.push(message) });
    const store = new FailOpenSessionStore(
      new RedisSessionStore({ client, keyPrefix: 'unused:', ttlMs: 60_000 }),
      new MemorySessionStore({ ttlMs: 60_000, maxSessions: 10 }),
      health,
    );
    try {
      expect(await store.get('unknown')).toBeUndefined();
      await store.set('known', { toolsets: ['web'], narrowed: true, updatedAt: 0 });
      expect((await store.get('known'))?.toolsets).toEqual(['web']);
      expect(health.available).toBe(false);
      expect(warnings).toHaveLength(1);
    } finally {
      client.disconnect();
    }
  });
});
