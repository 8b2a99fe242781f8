import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { describeChangeAnnouncementsContract } from '../change-announcements.contract.js';
import { closeRedisClient, createRedisCommandClient, createRedisSubscriberClient, waitUntilReady } from './redis-connection.js';
import { RedisChangeAnnouncements } from './redis-change-announcements.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis probe changes contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis probe changes', () => {
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  afterAll(async () => {
    await deleteKeyPrefixes(prefixes);
    await Promise.all(clients.map(closeRedisClient));
  });
  const connect = async (): Promise<{ client: Redis; subscriber: Redis }> => {
    const client = createRedisCommandClient({ url: redisTestUrl });
    const subscriber = createRedisSubscriberClient({ url: redisTestUrl });
    clients.push(client, subscriber);
    await waitUntilReady(client);
    return { client, subscriber };
  };
  const open = async (keyPrefix: string): Promise<RedisChangeAnnouncements> => {
    const changes = new RedisChangeAnnouncements({ ...(await connect()), keyPrefix, channel: 'probes' });
    await changes.whenSubscribed();
    return changes;
  };
  describeChangeAnnouncementsContract('redis probes', async () => {
    const prefix = uniqueKeyPrefix('probe-announcements');
    prefixes.push(prefix);
    return [await open(prefix), await open(prefix), await open(prefix)];
  });

  it('a probe announcement does not make the key stores re-read, nor the other way round', async () => {
    const prefix = uniqueKeyPrefix('probe-announcements');
    prefixes.push(prefix);
    const probes = await open(prefix);
    const keys = new RedisChangeAnnouncements({ ...(await connect()), keyPrefix: prefix, channel: 'keys' });
    await keys.whenSubscribed();
    const otherProbes = await open(prefix);
    let keysHeard = 0;
    let probesHeard = 0;
    keys.subscribe(() => (keysHeard += 1));
    probes.subscribe(() => (probesHeard += 1));
    await otherProbes.announce();
    await expect.poll(() => probesHeard, { timeout: 15_000, interval: 5 }).toBe(1);
    await sleep(50);
    expect(keysHeard).toBe(0);
  });
});
