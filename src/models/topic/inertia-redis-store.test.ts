import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../session/memory-session-store.js';
import { createRedisCommandClient } from '../../store/redis/redis-connection.js';
import { SharedStateHealth } from '../../store/redis/redis-health.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../store/redis/redis-test-support.js';
import { RedisTopicSessions } from './inertia-redis-store.js';
import { SessionStoreReadingTopics } from './inertia-session-read-along.js';
import { describeTopicSessionStoreContract } from './inertia-store.contract.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis topic inertia tests: no server at ${redisTestUrl}`);

const prefix = uniqueKeyPrefix('topic');
const client = available ? new Redis(redisTestUrl) : undefined;
const instance = (health = new SharedStateHealth('redis')) =>
  new RedisTopicSessions({ client: client!, keyPrefix: prefix, ttlMs: 60_000, maxSessions: 100, health });
/** Lets a write-through land before another instance reads. */
const landed = () => client!.ping();

afterAll(async () => {
  if (!client) return;
  await deleteKeyPrefixes([prefix]);
  client.disconnect();
});

describe.skipIf(!available)('redis topic inertia', () => {
  describeTopicSessionStoreContract('redis', () => instance());

  it('a state set on one instance is what another answers once it loaded the session', async () => {
    const first = instance();
    const second = instance();
    first.set('s1', { topic: 'software_it', turns: 1 });
    await landed();
    expect(second.get('s1')).toBeUndefined();
    await second.load('s1');
    expect(second.get('s1')).toEqual({ topic: 'software_it', turns: 1 });
    second.set('s1', { topic: 'software_it', pending: { topic: 'math', turns: 1 }, turns: 2 });
    await landed();
    await first.load('s1');
    expect(first.get('s1')).toEqual({ topic: 'software_it', pending: { topic: 'math', turns: 1 }, turns: 2 });
  });

  it('stores JSON under <prefix>topic:<session> with the session ttl', async () => {
    instance().set('s2', { topic: 'math', turns: 1 });
    await landed();
    expect(JSON.parse((await client!.get(`${prefix}topic:s2`)) ?? 'null')).toEqual({ topic: 'math', turns: 1 });
    const ttl = await client!.pttl(`${prefix}topic:s2`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('a set made while a load is in flight is not overwritten by the older answer', async () => {
    const first = instance();
    const second = instance();
    first.set('s3', { topic: 'software_it', turns: 1 });
    await landed();
    const loading = second.load('s3');
    second.set('s3', { topic: 'math', turns: 5 });
    await loading;
    expect(second.get('s3')).toEqual({ topic: 'math', turns: 5 });
  });

  it('ignores a stored value that is not a topic state', async () => {
    await client!.set(`${prefix}topic:s4`, '{"topic":');
    await client!.set(`${prefix}topic:s5`, '{"topic":"math"}');
    const store = instance();
    await store.load('s4');
    await store.load('s5');
    expect(store.get('s4')).toBeUndefined();
    expect(store.get('s5')).toBeUndefined();
  });

  it('a session read through SessionStoreReadingTopics brings the topic state in with it', async () => {
    instance().set('s6', { topic: 'math', turns: 3 });
    await landed();
    const topics = instance();
    const sessions = new SessionStoreReadingTopics(new MemorySessionStore({ ttlMs: 60_000, maxSessions: 10 }), topics);
    expect(await sessions.get('s6')).toBeUndefined();
    expect(topics.get('s6')).toEqual({ topic: 'math', turns: 3 });
  });

  it('answers from memory and reports the outage while Redis is unreachable', async () => {
    const down = createRedisCommandClient({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    const health = new SharedStateHealth('redis');
    const store = new RedisTopicSessions({ client: down, keyPrefix: prefix, ttlMs: 60_000, maxSessions: 10, health });
    try {
      store.set('s7', { topic: 'math', turns: 1 });
      const started = performance.now();
      await store.load('s7');
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(store.get('s7')).toEqual({ topic: 'math', turns: 1 });
      expect(health.available).toBe(false);
    } finally {
      down.disconnect();
    }
  });
});
