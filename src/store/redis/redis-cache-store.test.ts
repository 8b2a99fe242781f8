import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeCacheStoreContract } from '../cache-store.contract.js';
import { RedisCacheStore } from './redis-cache-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis cache store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis cache store', () => {
  const prefix = uniqueKeyPrefix('cache');
  const client = new Redis(redisTestUrl);
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  describeCacheStoreContract('redis', async () => new RedisCacheStore(client, `${prefix}${++run}:`, 1024 * 1024));
});
