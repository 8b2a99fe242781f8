/**
 * What the shared state costs per request: Redis session get/set (on the request path) and a breaker outcome
 * (in the background), sequential, p50/p99. Run: npx tsx test/cluster/redis-latency.bench.ts [iterations]
 */
import { RedisSessionStore } from '../../src/store/redis/redis-session-store.js';
import { closeRedisClient, createRedisCommandClient, waitUntilReady } from '../../src/store/redis/redis-connection.js';
import { RedisRoutingStateChannel } from '../../src/store/redis/redis-routing-state-channel.js';
import { createRedisSubscriberClient } from '../../src/store/redis/redis-connection.js';
import { deleteKeyPrefixes, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';

const iterations = Number(process.argv[2] ?? 2_000);
const prefix = uniqueKeyPrefix('bench');
const client = createRedisCommandClient({ url: redisTestUrl, commandTimeoutMs: 2_000 });
const subscriber = createRedisSubscriberClient({ url: redisTestUrl });
await waitUntilReady(client);

async function percentiles(run: (index: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  samples.sort((left, right) => left - right);
  const at = (share: number): number => Number((samples[Math.min(samples.length - 1, Math.floor(samples.length * share))] ?? 0).toFixed(3));
  return { p50: at(0.5), p99: at(0.99) };
}

try {
  const sessions = new RedisSessionStore({ client, keyPrefix: prefix, ttlMs: 60_000 });
  const state = { toolsets: ['terminal', 'files', 'web', 'browser'], narrowed: true, recoveries: 0, updatedAt: 0 };
  const channel = new RedisRoutingStateChannel({ client, subscriber, keyPrefix: prefix });
  const settings = { windowMs: 60_000, minCalls: 1_000_000, failureRate: 0.5, openMs: 30_000 };
  const results = {
    iterations,
    sessionSetMs: await percentiles((index) => sessions.set(`s-${index % 100}`, state)),
    sessionGetMs: await percentiles((index) => sessions.get(`s-${index % 100}`)),
    breakerOutcomeMs: await percentiles((index) => channel.recordOutcome(`p/m${index % 10}`, index % 3 !== 0, settings, Date.now())),
  };
  console.log(`session set p50 ${results.sessionSetMs.p50} ms p99 ${results.sessionSetMs.p99} ms; get p50 ${results.sessionGetMs.p50} ms p99 ${results.sessionGetMs.p99} ms; breaker outcome p50 ${results.breakerOutcomeMs.p50} ms p99 ${results.breakerOutcomeMs.p99} ms`);
  console.log(JSON.stringify(results));
} finally {
  await deleteKeyPrefixes([prefix]);
  await closeRedisClient(client);
  await closeRedisClient(subscriber);
}
