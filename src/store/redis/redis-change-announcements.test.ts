import type { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { describeChangeAnnouncementsContract } from '../change-announcements.contract.js';
import { closeRedisClient, createRedisCommandClient, createRedisSubscriberClient, waitUntilReady } from './redis-connection.js';
import { RedisChangeAnnouncements } from './redis-change-announcements.js';
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
  const open = async (keyPrefix: string): Promise<RedisChangeAnnouncements> => {
    const client = createRedisCommandClient({ url: redisTestUrl });
    const subscriber = createRedisSubscriberClient({ url: redisTestUrl });
    clients.push(client, subscriber);
    await waitUntilReady(client);
    const changes = new RedisChangeAnnouncements({ client, subscriber, keyPrefix, channel: 'keys' });
    await changes.whenSubscribed();
    return changes;
  };
  describeChangeAnnouncementsContract('redis', async () => {
    const prefix = uniqueKeyPrefix('change-announcements');
    prefixes.push(prefix);
    return [await open(prefix), await open(prefix), await open(prefix)];
  });
});
