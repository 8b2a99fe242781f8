import type { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeRoutingStateChannelContract } from '../routing-state-channel.contract.js';
import { closeRedisClient, createRedisCommandClient, createRedisSubscriberClient, waitUntilReady } from './redis-connection.js';
import { RedisRoutingStateChannel } from './redis-routing-state-channel.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis routing state contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis routing state channel', () => {
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  afterAll(async () => {
    await deleteKeyPrefixes(prefixes);
    await Promise.all(clients.map(closeRedisClient));
  });
  const open = async (keyPrefix: string): Promise<RedisRoutingStateChannel> => {
    const client = createRedisCommandClient({ url: redisTestUrl });
    const subscriber = createRedisSubscriberClient({ url: redisTestUrl });
    clients.push(client, subscriber);
    await waitUntilReady(client);
    const channel = new RedisRoutingStateChannel({ client, subscriber, keyPrefix });
    await channel.whenSubscribed();
    return channel;
  };
  describeRoutingStateChannelContract('redis', async () => {
    const prefix = uniqueKeyPrefix('routing');
    prefixes.push(prefix);
    return { first: await open(prefix), second: await open(prefix) };
  });
});
