import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from 'pino';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { dropSchemas, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';

export const clusterAdminKey = 'cluster-admin-secret';

export interface ClusterEndpoints {
  postgresUrl: string;
  redisUrl: string;
  schema: string;
  keyPrefix: string;
}

/** One gateway instance of a test cluster: the shared config plus its own data directory and port. */
export async function startInstance(
  upstreamUrl: string,
  endpoints: ClusterEndpoints,
  options: { logger?: Logger; configure?: (config: ConfigInput) => ConfigInput; resyncMs?: number } = {},
): Promise<{ instance: ConfiguredGateway; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-cluster-'));
  // Cooldowns of 1 ms: consecutive failures reach the breaker instead of being skipped as resting.
  const base: ConfigInput = {
    ...defaultConfig(upstreamUrl),
    server: { port: 0 },
    ledger: { flush_interval_ms: 50 },
    resilience: { cooldown_ms: 1, retry_after_cap_ms: 500, breaker: { min_calls: 2, failure_rate: 0.5, open_ms: 30_000 } },
    storage: {
      kind: 'cluster',
      postgres_url: endpoints.postgresUrl,
      redis_url: endpoints.redisUrl,
      postgres_schema: endpoints.schema,
      redis_key_prefix: endpoints.keyPrefix,
      // Long by default, so the tests see notifications at work, not the periodic resync.
      resync_ms: options.resyncMs ?? 60_000,
    },
  };
  const config = parseConfig(options.configure ? options.configure(base) : base, 'test');
  const instance = await runConfiguredGateway({
    config,
    dataDir,
    env: { HERMES_ROUTER_ADMIN_KEY: clusterAdminKey },
    logger: options.logger ?? pino({ level: 'silent' }),
  });
  return {
    instance,
    async close() {
      await instance.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Two instances of one test cluster, in front of one fake upstream, on a schema and key prefix of their own. */
export interface ClusterPair {
  endpoints: ClusterEndpoints;
  upstream: FakeUpstream;
  first: ConfiguredGateway;
  second: ConfiguredGateway;
  /** Stops both instances and the upstream, then drops the schema and the Redis keys. */
  close(): Promise<void>;
}

/** `label` names the schema and the key prefix (letters, digits and underscores). */
export async function startClusterPair(label: string, options: Parameters<typeof startInstance>[2] = {}): Promise<ClusterPair> {
  const endpoints: ClusterEndpoints = {
    postgresUrl: postgresTestUrl,
    redisUrl: redisTestUrl,
    schema: uniqueSchemaName(label),
    keyPrefix: uniqueKeyPrefix(label),
  };
  const upstream = await startFakeUpstream();
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closers.map((closeOne) => closeOne()));
    await upstream.close();
    await dropSchemas([endpoints.schema]);
    await deleteKeyPrefixes([endpoints.keyPrefix]);
  };
  try {
    const first = await startInstance(upstream.url, endpoints, options);
    closers.push(first.close);
    const second = await startInstance(upstream.url, endpoints, options);
    closers.push(second.close);
    return { endpoints, upstream, first: first.instance, second: second.instance, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function postChat(
  baseUrl: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; requestId: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    requestId: response.headers.get('x-hermes-router-request-id'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/**
 * How long a test waits for a change another instance announced (or for shared state another instance wrote).
 * Not a speed: the measured times are in src/store/CLUSTER.md. The instances resync every minute, so what a test
 * sees within this quarter of it came by announcement however slow a loaded machine is, and a lost announcement
 * still fails the test.
 */
export const announcementWaitMs = 15_000;

/** Polls `condition` every 10 ms; resolves with the milliseconds it took, or throws after `timeoutMs`. */
export async function within(timeoutMs: number, condition: () => boolean | Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

/** A pino logger at `level` whose lines are kept, parsed, for tests that check what an outage logs. */
export function capturingLogger(level: pino.Level = 'warn'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
