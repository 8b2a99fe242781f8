import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { PostgresLedgerStore } from '../../src/store/postgres/postgres-ledger-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream, ReceivedRequest } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';
import { spawnGateway } from '../support/spawn-gateway.js';
import type { GatewayProcess } from '../support/spawn-gateway.js';
import { announcementWaitMs, clusterAdminKey, postChat, within } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the two-process cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const hermesTools = (
  JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]
).map(({ toolset: _toolset, ...tool }) => tool);

function toolsBytes(request: ReceivedRequest | undefined): string {
  return JSON.stringify((request?.json as { tools?: unknown } | undefined)?.tools);
}

/** The same as two-instances.test.ts, with `hermes-router start` as two real processes (what a deployment runs). */
describe.skipIf(!available)('two hermes-router processes sharing Postgres and Redis', () => {
  const schema = uniqueSchemaName('processes');
  const keyPrefix = uniqueKeyPrefix('processes');
  const directories: string[] = [];
  const processes: GatewayProcess[] = [];
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const config: ConfigInput = {
      ...defaultConfig(upstream.url),
      ledger: { flush_interval_ms: 50 },
      // The resync a minute away (the default is 5 s): a switch B sees within announcementWaitMs came by announcement.
      storage: { kind: 'cluster', postgres_url_env: 'TEST_PG_URL', redis_url: redisTestUrl, postgres_schema: schema, redis_key_prefix: keyPrefix, resync_ms: 60_000 },
    };
    const env = { HERMES_ROUTER_ADMIN_KEY: clusterAdminKey, TEST_PG_URL: postgresTestUrl };
    const started = await Promise.all(
      [0, 1].map(() => {
        const directory = mkdtempSync(join(tmpdir(), 'hermes-router-process-'));
        directories.push(directory);
        return spawnGateway(directory, config, env);
      }),
    );
    processes.push(...started);
  }, 60_000);
  afterAll(async () => {
    for (const gateway of processes) gateway.child.kill('SIGTERM');
    await Promise.all(processes.map((gateway) => gateway.exited));
    await upstream?.close();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
    await dropSchemas([schema]);
    await deleteKeyPrefixes([keyPrefix]);
  });

  it('share sticky surfaces, model switches and one ledger', async () => {
    const [first, second] = processes;
    if (!first || !second) throw new Error('two processes expected');
    const session = { 'x-session-id': 'process-session-1' };
    const messages = [{ role: 'user', content: 'run the unit tests in this repository and fix the failing ones' }];
    const onFirst = await postChat(first.url, { model: 'gpt-test', messages, tools: hermesTools }, session);
    expect(onFirst.status).toBe(200);
    const narrowed = upstream.requests.at(-1);
    expect(JSON.parse(toolsBytes(narrowed)).length).toBeLessThan(hermesTools.length);
    const onSecond = await postChat(
      second.url,
      { model: 'gpt-test', messages: [...messages, { role: 'assistant', content: 'On it.' }, { role: 'user', content: 'now run only the failing test again' }], tools: hermesTools },
      session,
    );
    expect(onSecond.status).toBe(200);
    expect(toolsBytes(upstream.requests.at(-1))).toBe(toolsBytes(narrowed));

    const switched = await fetch(`${first.url}/v1/config/models/enabled`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clusterAdminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'local', model: 'gpt-test', enabled: false }),
    });
    expect(switched.status).toBe(200);
    const elapsed = await within(announcementWaitMs, async () => {
      const listing = (await (
        await fetch(`${second.url}/v1/config/models`, { headers: { authorization: `Bearer ${clusterAdminKey}` } })
      ).json()) as { models: { provider: string; model: string; enabled: boolean }[] };
      return listing.models.some((row) => row.provider === 'local' && row.model === 'gpt-test' && !row.enabled);
    });
    console.info(`switch through process A seen by process B after ${elapsed.toFixed(0)} ms`);
    upstream.reset();
    const skipped = await postChat(second.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] });
    expect(skipped.status).toBe(200);
    expect(upstream.requests.map((request) => request.model)).toEqual(['big-test']);

    const report = await PostgresLedgerStore.open({ url: postgresTestUrl, schema });
    try {
      const expected = [onFirst.requestId, onSecond.requestId, skipped.requestId];
      await within(15_000, async () => {
        const stored = new Set((await report.requests({ limit: 100 })).items.map((record) => record.requestId));
        return expected.every((requestId) => requestId !== null && stored.has(requestId));
      });
    } finally {
      await report.close();
    }
  }, 60_000);
});
