import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeBudgetCounterStoreContract } from '../budget-counter-store.contract.js';
import { RedisBudgetCounterStore } from './redis-budget-counter-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis budget counter store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis budget counter store', () => {
  const prefix = uniqueKeyPrefix('budgets');
  const client = new Redis(redisTestUrl);
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
  });
  describeBudgetCounterStoreContract('redis', () => new RedisBudgetCounterStore(client, `${prefix}${++run}:`));
});
