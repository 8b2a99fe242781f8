import type { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeKeyChangesContract } from '../key-changes.contract.js';
import { closeRedisClient, createRedisCommandClient, createRedisSubscriberClient, waitUntilReady } from './redis-connection.js';
import { RedisKeyChanges } from './redis-key-changes.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis key changes contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis key changes', () => {
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  afterAll(async () => {
    await deleteKeyPrefixes(prefixes);
    await Promise.all(clients.map(closeRedisClient));
  });
  const open = async (keyPrefix: string): Promise<RedisKeyChanges> => {
    const client = createRedisCommandClient({ url: redisTestUrl });
    const subscriber = createRedisSubscriberClient({ url: redisTestUrl });
    clients.push(client, subscriber);
    await waitUntilReady(client);
    const changes = new RedisKeyChanges({ client, subscriber, keyPrefix });
    await changes.whenSubscribed();
    return changes;
  };
  describeKeyChangesContract('redis', async () => {
    const prefix = uniqueKeyPrefix('key-changes');
    prefixes.push(prefix);
    return [await open(prefix), await open(prefix), await open(prefix)];
  });
});
