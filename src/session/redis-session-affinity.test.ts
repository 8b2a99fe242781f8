import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SharedStateHealth } from '../store/redis/redis-health.js';
import { createRedisCommandClient } from '../store/redis/redis-connection.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../store/redis/redis-test-support.js';
import { RedisSessionAffinity } from './redis-session-affinity.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis session affinity tests: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis session affinity', () => {
  const prefix = uniqueKeyPrefix('affinity');
  const client = new Redis(redisTestUrl);
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  const instance = () =>
    new RedisSessionAffinity({ client, keyPrefix: prefix, ttlMs: 60_000, maxSessions: 100, health: new SharedStateHealth('redis') });

  it('the turn after one served elsewhere goes where that one went', async () => {
    const first = instance();
    const second = instance();
    first.remember('s1', 'claude/claude-test');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Never waits: the first ask on the other instance answers from its own memory and fetches in the background.
    expect(second.get('s1')).toBeUndefined();
    await second.settled();
    expect(second.get('s1')).toBe('claude/claude-test');
    // Moved on the second instance: the first follows on its next turn.
    second.remember('s1', 'local/gpt-test');
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.get('s1');
    await first.settled();
    expect(first.get('s1')).toBe('local/gpt-test');
  });

  it('a remember made while a read is in flight is not overwritten by the older answer', async () => {
    const first = instance();
    const second = instance();
    first.remember('s2', 'old/model');
    await new Promise((resolve) => setTimeout(resolve, 20));
    second.get('s2');
    second.remember('s2', 'new/model');
    // Let the earlier read land (settled() no longer tracks it: remember dropped it).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.get('s2')).toBe('new/model');
  });

  it('answers from memory and reports the outage when Redis is unreachable', async () => {
    const down = createRedisCommandClient({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    const health = new SharedStateHealth('redis');
    const affinity = new RedisSessionAffinity({ client: down, keyPrefix: prefix, ttlMs: 60_000, maxSessions: 10, health });
    try {
      affinity.remember('s3', 'local/gpt-test');
      expect(affinity.get('s3')).toBe('local/gpt-test');
      await affinity.settled();
      expect(health.available).toBe(false);
    } finally {
      down.disconnect();
    }
  });
});
