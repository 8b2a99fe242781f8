import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /** `redis://host:6379/0` */
  url: string;
  /** Every key (and the change channel) starts with this, so deployments and test runs never meet. */
  keyPrefix?: string;
  /** A routing read may not hold a request longer than this; past it the caller fails open. */
  commandTimeoutMs?: number;
}

export const defaultRedisKeyPrefix = 'hermes-router:';

/**
 * A command connection that never queues: while Redis is away commands fail at once (or after the command
 * timeout), so the request path falls back to local state instead of waiting. It keeps reconnecting in the
 * background, at most every 2 s.
 */
export function createRedisCommandClient(options: RedisConnectionOptions): Redis {
  return withQuietErrors(new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
  }));
}

/** The subscriber connection: it queues its SUBSCRIBE until connected and resubscribes after a reconnect. */
export function createRedisSubscriberClient(options: RedisConnectionOptions): Redis {
  return withQuietErrors(
    new Redis(options.url, {
      enableOfflineQueue: true,
      autoResubscribe: true,
      // The ready check sends INFO, which a connection already resubscribing refuses; subscribing needs no check.
      enableReadyCheck: false,
      connectTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    }),
  );
}

/**
 * Connection errors are expected while Redis is away and are reported through the commands that fail (see
 * `SharedStateHealth`); without a listener ioredis would print each one to stderr.
 */
function withQuietErrors(client: Redis): Redis {
  client.on('error', () => undefined);
  return client;
}

/** Resolves once the client is ready, or after `timeoutMs` (a gateway starts with Redis away; it fails open). */
export function waitUntilReady(client: Redis, timeoutMs = 1_000): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });
}

/** Closes without waiting for a server that may be gone. */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
}
