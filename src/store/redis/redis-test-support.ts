import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The server the cluster tests use: `HERMES_TEST_REDIS_URL`, else the local one CI provides. */
export const redisTestUrl = process.env.HERMES_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether the test server answers PING within a second; suites skip (saying why) when it does not. */
export async function redisAvailable(url = redisTestUrl): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A key prefix no other test file or run uses. */
export function uniqueKeyPrefix(label: string): string {
  return `hermes-test:${label}:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under the prefixes (SCAN, never KEYS, so a shared server is not blocked). */
export async function deleteKeyPrefixes(prefixes: readonly string[], url = redisTestUrl): Promise<void> {
  if (prefixes.length === 0) return;
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await client.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}
