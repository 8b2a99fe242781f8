import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeSemanticCacheStoreContract } from '../semantic-cache-store.contract.js';
import { RedisSemanticCacheStore } from './redis-semantic-cache-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis semantic cache store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis semantic cache store', () => {
  const prefix = uniqueKeyPrefix('semantic-cache');
  const client = new Redis(redisTestUrl);
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  describeSemanticCacheStoreContract('redis', async () => new RedisSemanticCacheStore(client, `${prefix}${++run}:`));
});
