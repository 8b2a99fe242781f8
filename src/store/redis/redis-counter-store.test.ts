import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeCounterStoreContract } from '../counter-store.contract.js';
import { RedisCounterStore } from './redis-counter-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis counter store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis counter store', () => {
  const prefix = uniqueKeyPrefix('counters');
  const client = new Redis(redisTestUrl);
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  describeCounterStoreContract('redis', () => new RedisCounterStore(client, `${prefix}${++run}:`), 'server');
});
