/**
 * What one semantic-cache lookup costs against Redis at the defaults (256 entries × 1536 dimensions): the whole
 * list fetched and decoded (every lookup before the per-instance mirror, and now a mirror miss), the steady state
 * (nothing added since the last lookup) and the lookup after one add by another instance. Prints, asserts nothing.
 *
 *   node --import tsx bench/semantic-cache-lookup.ts [-- --rounds 50 --entries 256 --dimensions 1536]
 *
 * Needs the Redis at HERMES_TEST_REDIS_URL (default redis://127.0.0.1:6379); its keys are deleted afterwards.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { unitSimilarity } from '../src/cache/semantic/cosine-similarity.js';
import { RedisSemanticCacheStore } from '../src/store/redis/redis-semantic-cache-store.js';
import { deleteKeyPrefixes, redisTestUrl, uniqueKeyPrefix } from '../src/store/redis/redis-test-support.js';
import { percentile } from './support.js';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '50' },
    entries: { type: 'string', default: '256' },
    dimensions: { type: 'string', default: '1536' },
  },
});
const rounds = Number(flags.rounds);
const entryCount = Number(flags.entries);
const dimensions = Number(flags.dimensions);
const limits = { maxEntries: entryCount, ttlMs: 600_000 };

function randomUnitVector(): number[] {
  const values = Array.from({ length: dimensions }, () => Math.random() - 0.5);
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

async function timed(label: string, lookup: () => Promise<unknown>, before: () => Promise<void> = async () => undefined): Promise<void> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    await before();
    const started = performance.now();
    await lookup();
    samples.push(performance.now() - started);
  }
  samples.sort((left, right) => left - right);
  console.log(`${label.padEnd(44)} p50 ${percentile(samples, 0.5).toFixed(2).padStart(7)} ms   p99 ${percentile(samples, 0.99).toFixed(2).padStart(7)} ms`);
}

const prefix = uniqueKeyPrefix('semantic-bench');
const client = new Redis(redisTestUrl);
const otherClient = new Redis(redisTestUrl);
try {
  const writer = new RedisSemanticCacheStore(otherClient, prefix);
  for (let index = 0; index < entryCount; index += 1) await writer.add('n', { vector: randomUnitVector(), answerKey: `answer-${index}`, storedAt: Date.now() }, limits);
  const listBytes = Number(await client.call('MEMORY', 'USAGE', `${prefix}semantic-entries:n`));
  const elementBytes = (await client.lindex(`${prefix}semantic-entries:n`, 0))?.length ?? 0;
  console.log(
    `${entryCount} entries × ${dimensions} dimensions, ${rounds} rounds each; one element is ${(elementBytes / 1024).toFixed(1)} KiB, ` +
      `a full read moves ${((elementBytes * entryCount) / 1024 / 1024).toFixed(2)} MiB (the list takes ${(listBytes / 1024 / 1024).toFixed(2)} MiB in Redis)`,
  );

  const unmirrored = new RedisSemanticCacheStore(client, prefix, { mirrorBytes: 0 });
  const mirrored = new RedisSemanticCacheStore(client, prefix);
  await unmirrored.entries('n');
  await timed('full read (before the mirror; a mirror miss)', () => unmirrored.entries('n'));
  await mirrored.entries('n');
  await timed('mirror, steady state', () => mirrored.entries('n'));
  const extra = randomUnitVector();
  await timed(
    'mirror, after one add by another instance',
    () => mirrored.entries('n'),
    () => writer.add('n', { vector: extra, answerKey: 'extra', storedAt: Date.now() }, limits),
  );
  const query = randomUnitVector();
  const vectors = await mirrored.entries('n');
  await timed('for scale: the similarity scan itself', async () => vectors.map(({ vector }) => unitSimilarity(query, vector)));
} finally {
  await deleteKeyPrefixes([prefix]);
  client.disconnect();
  otherClient.disconnect();
}
