import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeResponseStoreContract } from '../response-store.contract.js';
import { RedisResponseStore } from './redis-response-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis response store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis response store', () => {
  const prefix = uniqueKeyPrefix('responses');
  const client = new Redis(redisTestUrl);
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  describeResponseStoreContract('redis', async () => new RedisResponseStore(client, `${prefix}${++run}:`, 1024 * 1024));
});
