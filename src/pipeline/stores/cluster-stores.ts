import { Gauge, type Registry } from '../../core/prometheus.js';
import type { BreakerSettings } from '../../dispatch/circuit-breaker.js';
import { MemorySessionStore } from '../../store/memory/memory-session-store.js';
import { FailOpenSessionStore } from '../../store/redis/fail-open-session-store.js';
import { RedisSessionStore } from '../../store/redis/redis-session-store.js';
import { type ClusterStorageConfig, resolveStorageUrl } from '../../config/storage.js';
import type { GatewayStores } from './gateway-stores.js';
import { emptyPolicyDocument } from '../../store/policy/policy-document.js';
import type { PolicyDocument } from '../../store/policy/policy-document.js';
import { PostgresLedgerStore } from '../../store/postgres/postgres-ledger-store.js';
import { PostgresPolicyStore } from '../../store/postgres/postgres-policy-store.js';
import { PostgresKeyStore } from '../../store/postgres/postgres-key-store.js';
import { PostgresProbeStore } from '../../store/postgres/postgres-probe-store.js';
import { SchemaTooNewError } from '../../store/postgres/postgres-migrations.js';
import { createPostgresPool } from '../../store/postgres/postgres-pool.js';
import {
  closeRedisClient,
  createRedisCommandClient,
  createRedisSubscriberClient,
  waitUntilReady,
} from '../../store/redis/redis-connection.js';
import { SharedStateHealth, type StateLogger, silentStateLogger } from '../../store/redis/redis-health.js';
import { RedisRoutingStateChannel } from '../../store/redis/redis-routing-state-channel.js';
import { RedisChangeAnnouncements } from '../../store/redis/redis-change-announcements.js';
import { RedisCounterStore } from '../../store/redis/redis-counter-store.js';
import { RedisBudgetCounterStore } from '../../store/redis/redis-budget-counter-store.js';
import { RedisDashboardSessionStore } from '../../store/redis/redis-dashboard-session-store.js';
import { SharedRoutingState } from '../../dispatch/shared-routing-state.js';
import { RedisCacheStore } from '../../store/redis/redis-cache-store.js';
import { RedisResponseStore } from '../../store/redis/redis-response-store.js';
import { RedisSemanticCacheStore } from '../../store/redis/redis-semantic-cache-store.js';

export interface OpenClusterStoresOptions {
  storage: ClusterStorageConfig;
  /** For `postgres_url_env` / `redis_url_env`. */
  env?: NodeJS.ProcessEnv;
  /** Session records, one Redis key each (tool surface, affinity, topic inertia, nudge, prompt-cache state). */
  sessions: { ttlMs: number; maxSessions: number };
  /** `cache.max_bytes`: the largest answer the shared response cache keeps. */
  cacheMaxEntryBytes?: number;
  /** The largest stored Responses API response kept in Redis (`responses.max_bytes`, capped per entry). */
  responsesMaxEntryBytes?: number;
  breakerSettings: BreakerSettings;
  logger?: StateLogger;
  /** Where `hermes_router_shared_state_available` is exported (the gateway's /metrics registry). */
  registry?: Registry;
}

export interface ClusterStores {
  /** Hand to `startGateway({ stores })`. */
  gatewayStores: GatewayStores;
  /** The ledger's store; the Ledger owns and closes it. */
  ledgerStore: PostgresLedgerStore;
  routingState: SharedRoutingState;
  health: SharedStateHealth;
  /** Application keys: Postgres, kept in memory, changes announced on Redis (`gatewayStores.keys`). */
  keys: PostgresKeyStore;
  /** `models probe` results: Postgres, kept in memory, changes announced on Redis (`gatewayStores.probes`). */
  probes: PostgresProbeStore;
  /** Closes Redis connections and the policy pool (not the ledger store). */
  close(): Promise<void>;
}

/**
 * Connects an instance to the cluster's Postgres and Redis. Neither has to be up: with Postgres away the ledger
 * queues and the policy starts empty (every model on) until the first resync reads it; with Redis away routing
 * state is this instance's own until Redis returns. Both are logged, and Redis's state is a gauge in /metrics.
 */
export async function openClusterStores(options: OpenClusterStoresOptions): Promise<ClusterStores> {
  const { storage } = options;
  const postgresUrl = resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, options.env ?? {});
  const redisUrl = resolveStorageUrl(storage.redis_url, storage.redis_url_env, options.env ?? {});
  const logger = options.logger ?? silentStateLogger;
  const health = new SharedStateHealth('redis', logger);
  if (options.registry) {
    const gauge = new Gauge({
      name: 'hermes_router_shared_state_available',
      help: '1 while the shared routing state (Redis) is reachable; 0 while this instance routes on local state',
      registers: [options.registry],
    });
    health.onChange((available) => gauge.set(available ? 1 : 0));
  }
  const redisOptions = { url: redisUrl, keyPrefix: storage.redis_key_prefix, commandTimeoutMs: storage.redis_timeout_ms };
  const client = createRedisCommandClient(redisOptions);
  const subscriber = createRedisSubscriberClient(redisOptions);
  client.on('error', (error: Error) => health.failed('connection', error));
  client.on('ready', () => health.succeeded());
  subscriber.on('error', () => undefined);
  if (!(await waitUntilReady(client))) health.failed('connect', new Error(`no answer from ${redactUrl(redisUrl)}`));

  const connection = { url: postgresUrl, schema: storage.postgres_schema, maxConnections: storage.postgres_pool_size };
  const ledgerStore = new PostgresLedgerStore(connection);
  const policyPool = createPostgresPool({ ...connection, maxConnections: 2 });
  const policyStore = new PostgresPolicyStore({ ...connection, pool: policyPool });
  const keyStore = new PostgresKeyStore({
    ...connection,
    pool: policyPool,
    changes: new RedisChangeAnnouncements({ client, subscriber, keyPrefix: storage.redis_key_prefix, channel: 'keys' }),
    resyncIntervalMs: storage.resync_ms,
    logger,
  });
  const probeStore = new PostgresProbeStore({
    ...connection,
    pool: policyPool,
    changes: new RedisChangeAnnouncements({ client, subscriber, keyPrefix: storage.redis_key_prefix, channel: 'probes' }),
    resyncIntervalMs: storage.resync_ms,
    logger,
  });
  const probesStarted = probeStore.start().then(
    () => undefined,
    (error: unknown) => error,
  );
  // Read alongside the policy, so a Postgres outage at start costs one connect timeout, not two.
  const keysStarted = keyStore.start().then(
    () => undefined,
    (error: unknown) => error,
  );
  let initial: PolicyDocument;
  try {
    await ledgerStore.ready();
    initial = await policyStore.load();
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      await Promise.all([keysStarted, probesStarted]);
      await Promise.allSettled([keyStore.close(), probeStore.close(), ledgerStore.close(), policyPool.end(), closeRedisClient(client), closeRedisClient(subscriber)]);
      throw error;
    }
    logger.warn(
      { error: error instanceof Error ? error.message : String(error), postgres: redactUrl(postgresUrl) },
      'postgres unreachable at start: ledger rows queue and every model is on until the policy can be read',
    );
    initial = emptyPolicyDocument();
  }
  const keysFailed = await keysStarted;
  const probesFailed = await probesStarted;
  if (keysFailed instanceof SchemaTooNewError || probesFailed instanceof SchemaTooNewError) {
    await Promise.allSettled([keyStore.close(), probeStore.close(), ledgerStore.close(), policyPool.end(), closeRedisClient(client), closeRedisClient(subscriber)]);
    throw keysFailed instanceof SchemaTooNewError ? keysFailed : probesFailed;
  }
  if (keysFailed !== undefined) {
    logger.warn(
      { error: keysFailed instanceof Error ? keysFailed.message : String(keysFailed), postgres: redactUrl(postgresUrl) },
      'postgres unreachable at start: no application key is known (keyed requests get 401) until the key store can be read',
    );
  }

  if (probesFailed !== undefined) {
    logger.warn(
      { error: probesFailed instanceof Error ? probesFailed.message : String(probesFailed), postgres: redactUrl(postgresUrl) },
      'postgres unreachable at start: model capabilities come from config, bundled data and name patterns until the probe results can be read',
    );
  }

  const channel = new RedisRoutingStateChannel({ client, subscriber, keyPrefix: storage.redis_key_prefix });
  const routingState = new SharedRoutingState({
    channel,
    health,
    breakerSettings: options.breakerSettings,
    logger,
    resyncIntervalMs: storage.resync_ms,
  });
  const sessions = new FailOpenSessionStore(
    new RedisSessionStore({ client, keyPrefix: storage.redis_key_prefix, ttlMs: options.sessions.ttlMs }),
    new MemorySessionStore({ ttlMs: options.sessions.ttlMs, maxSessions: options.sessions.maxSessions }),
    health,
  );
  return {
    gatewayStores: {
      sessions,
      policy: { store: routingState.announcingPolicyStore(policyStore), initial },
      createBreakers: (settings, onChange) => routingState.createBreakers(settings, onChange),
      cooldowns: routingState.cooldowns,
      keys: keyStore,
      probes: probeStore,
      counters: new RedisCounterStore(client, storage.redis_key_prefix),
      budgets: new RedisBudgetCounterStore(client, storage.redis_key_prefix),
      dashboardSessions: new RedisDashboardSessionStore({ client, keyPrefix: storage.redis_key_prefix }),
      cache: new RedisCacheStore(client, storage.redis_key_prefix, options.cacheMaxEntryBytes ?? 8 * 1024 * 1024),
      semanticCache: new RedisSemanticCacheStore(client, storage.redis_key_prefix),
      // Stored Responses API responses: any instance can continue a conversation another one answered.
      responses: new RedisResponseStore(client, storage.redis_key_prefix, options.responsesMaxEntryBytes ?? 8 * 1024 * 1024),
    },
    ledgerStore,
    routingState,
    health,
    keys: keyStore,
    probes: probeStore,
    close: async () => {
      await routingState.close();
      await keyStore.close();
      await probeStore.close();
      await Promise.allSettled([closeRedisClient(client), closeRedisClient(subscriber), policyPool.end()]);
    },
  };
}

/** A URL for log lines: the password replaced. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}
