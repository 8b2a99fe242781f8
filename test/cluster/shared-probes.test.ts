import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsListCommand } from '../../src/cli/models-list.js';
import { modelsProbeCommand } from '../../src/cli/models-probe.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { bearer, call } from '../security/security-client.js';
import { capturingContext } from '../support/cli-context.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';
import { capturingLogger, clusterAdminKey, type ClusterEndpoints, type ClusterPair, startClusterPair, startInstance, announcementWaitMs, within } from './cluster-harness.js';
import { TcpProxy } from './tcp-proxy.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared probe results cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const admin = bearer(clusterAdminKey);
const tinyPng = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const imageChat = {
  model: 'gpt-test',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: tinyPng } }] }],
};

interface ModelView {
  provider: string;
  model: string;
  metadata: { tools: boolean | null; vision: boolean | null; sources: Record<string, string> };
}

async function modelView(on: ConfiguredGateway, qualifiedName: string): Promise<ModelView | undefined> {
  const listed = (await call(`${on.url}/v1/config/models`, { headers: admin })).body as { models: ModelView[] };
  return listed.models.find((row) => `${row.provider}/${row.model}` === qualifiedName);
}

/** The probe upstream behaviour: gpt-test calls tools but refuses images (a plain request succeeds). */
function refuseImagesForGptTest(upstream: FakeUpstream): void {
  upstream.setScript({
    respond: (request) => {
      const hasImage = JSON.stringify((request.json as { messages?: unknown }).messages ?? []).includes('image_url');
      return request.model === 'gpt-test' && hasImage ? { kind: 'error', status: 400, message: 'this model does not accept images' } : undefined;
    },
  });
}

/** A config file for the CLI: the instances' providers and the cluster's storage. */
function writeClusterConfig(directory: string, upstreamUrl: string, endpoints: ClusterEndpoints): string {
  const config: ConfigInput = {
    ...defaultConfig(upstreamUrl),
    storage: {
      kind: 'cluster',
      postgres_url: endpoints.postgresUrl,
      redis_url: endpoints.redisUrl,
      postgres_schema: endpoints.schema,
      redis_key_prefix: endpoints.keyPrefix,
    },
  };
  const path = join(directory, `config-${endpoints.schema}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe.skipIf(!available)('probe results shared by the instances of a cluster', () => {
  let pair: ClusterPair;
  let directory: string;

  beforeAll(async () => {
    // The resync is a minute away: whatever B learns within announcementWaitMs, it learned from the announcement.
    pair = await startClusterPair('probes_cluster', { resyncMs: 60_000 });
    directory = mkdtempSync(join(tmpdir(), 'hermes-router-shared-probes-'));
  });
  afterAll(async () => {
    await pair?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('`models probe` with the cluster config changes what both instances report and how B routes, by announcement', async () => {
    const { first, second, upstream } = pair;
    expect((await modelView(second, 'local/gpt-test'))?.metadata).toMatchObject({ tools: null, vision: null });
    // Vision unknown and the model named: B tries gpt-test with the image.
    const before = await call(`${second.url}/v1/chat/completions`, { method: 'POST', json: imageChat });
    expect(before.status).toBe(200);
    expect(before.headers.get('x-hermes-router-model')).toBe('local/gpt-test');

    upstream.reset();
    refuseImagesForGptTest(upstream);
    const run = capturingContext({ cwd: directory });
    const configPath = writeClusterConfig(directory, upstream.url, pair.endpoints);
    const exitCode = await modelsProbeCommand.run(['--config', configPath, '--data-dir', join(directory, 'cli-data'), '--json', 'local/gpt-test'], run);
    expect(exitCode, run.err()).toBe(0);
    expect(run.out()).toContain(`postgres ${pair.endpoints.schema}.model_probes`);
    const probed = performance.now();
    upstream.reset();

    const learned = await within(announcementWaitMs, async () => (await modelView(second, 'local/gpt-test'))?.metadata.sources.supportsVision === 'probe');
    console.info(`probe results stored by the CLI reported by B after ${learned.toFixed(1)} ms (${(performance.now() - probed).toFixed(1)} ms since the run ended)`);
    for (const instance of [first, second]) {
      expect((await modelView(instance, 'local/gpt-test'))?.metadata).toMatchObject({
        tools: true,
        vision: false,
        sources: { supportsTools: 'probe', supportsVision: 'probe' },
      });
    }
    // `models list` with the same config reads the cluster's results too, not the CLI's (empty) data directory.
    const list = capturingContext({ cwd: directory });
    expect(await modelsListCommand.run(['--config', configPath, '--data-dir', join(directory, 'cli-data'), '--json'], list)).toBe(0);
    const rows = (JSON.parse(list.out().trim().split('\n').at(-1) ?? '{}') as { models: { model: string; vision: boolean | null; sources: Record<string, string> }[] }).models;
    expect(rows.find((row) => row.model === 'gpt-test')).toMatchObject({ vision: false, sources: { supportsVision: 'probe' } });
    // Now a known lack: B no longer sends the image to gpt-test but to its fallback, though the upstream would take it.
    const after = await call(`${second.url}/v1/chat/completions`, { method: 'POST', json: imageChat });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-hermes-router-model')).toBe('local/big-test');
  });

  it('with Postgres unreachable the CLI fails with a clear error and probes nothing', async () => {
    const { upstream } = pair;
    upstream.reset();
    const endpoints = { ...pair.endpoints, postgresUrl: 'postgres://postgres@127.0.0.1:1/test' };
    const run = capturingContext({ cwd: directory });
    const exitCode = await modelsProbeCommand.run(['--config', writeClusterConfig(directory, upstream.url, endpoints), '--data-dir', join(directory, 'cli-data')], run);
    expect(exitCode).toBe(1);
    expect(run.err()).toMatch(/the cluster's probe store \(Postgres\) is unreachable: .*; nothing was probed/);
    expect(upstream.requestCount()).toBe(0);
  });
});

describe.skipIf(!available)('an instance that starts while Postgres is away', () => {
  it('starts on bundled data with one warning, then takes the probe results stored once Postgres is back, without a restart', async () => {
    const upstream = await startFakeUpstream();
    const postgres = new URL(postgresTestUrl);
    const proxy = new TcpProxy(postgres.hostname, Number(postgres.port || 5432));
    await proxy.start();
    await proxy.stop();
    const proxied = new URL(postgresTestUrl);
    proxied.port = String(proxy.port);
    const endpoints: ClusterEndpoints = { postgresUrl: proxied.toString(), redisUrl: redisTestUrl, schema: uniqueSchemaName('probepg'), keyPrefix: uniqueKeyPrefix('probepg') };
    const directory = mkdtempSync(join(tmpdir(), 'hermes-router-shared-probes-'));
    const { logger, lines } = capturingLogger('info');
    const { instance, close } = await startInstance(upstream.url, endpoints, { resyncMs: 100, logger });
    try {
      const warnings = lines.filter((line) => String(line.msg).startsWith('postgres unreachable at start: model capabilities'));
      expect(warnings, JSON.stringify(lines)).toHaveLength(1);
      expect((await modelView(instance, 'local/gpt-test'))?.metadata).toMatchObject({ tools: null, vision: null });

      await proxy.start();
      refuseImagesForGptTest(upstream);
      // Through the real Postgres, not the proxy: the instance must find the rows by itself, without a restart.
      const run = capturingContext({ cwd: directory });
      const exitCode = await modelsProbeCommand.run(
        ['--config', writeClusterConfig(directory, upstream.url, { ...endpoints, postgresUrl: postgresTestUrl }), '--data-dir', join(directory, 'cli-data'), 'local/gpt-test'],
        run,
      );
      expect(exitCode, run.err()).toBe(0);
      await within(15_000, async () => (await modelView(instance, 'local/gpt-test'))?.metadata.vision === false);
      expect((await modelView(instance, 'local/gpt-test'))?.metadata.sources).toMatchObject({ supportsVision: 'probe' });
    } finally {
      await close();
      await proxy.stop();
      await upstream.close();
      await dropSchemas([endpoints.schema]);
      await deleteKeyPrefixes([endpoints.keyPrefix]);
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
