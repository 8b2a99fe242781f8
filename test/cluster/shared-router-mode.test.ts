import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { clusterAdminKey, postChat, startInstance, announcementWaitMs, within } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared router mode test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const hermesTools = (
  JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]
).map(({ toolset: _toolset, ...tool }) => tool);

describe.skipIf(!available)('the tool routing mode shared through the cluster policy', () => {
  const endpoints = {
    postgresUrl: postgresTestUrl,
    redisUrl: redisTestUrl,
    schema: uniqueSchemaName('router_mode'),
    keyPrefix: uniqueKeyPrefix('router-mode'),
  };
  let upstream: FakeUpstream;
  const closers = new Set<() => Promise<void>>();
  let sessionNumber = 0;

  /** Tools the upstream received for a first turn of a new session sent to `url`. */
  async function toolsSentThrough(url: string): Promise<number> {
    sessionNumber += 1;
    const answer = await postChat(
      url,
      { model: 'gpt-test', messages: [{ role: 'user', content: 'run the unit tests in this repository and fix the failing ones' }], tools: hermesTools },
      { 'x-session-id': `router-mode-session-${sessionNumber}` },
    );
    expect(answer.status).toBe(200);
    return ((upstream.requests.at(-1)?.json as { tools?: unknown[] } | undefined)?.tools ?? []).length;
  }

  async function start() {
    const started = await startInstance(upstream.url, endpoints);
    closers.add(started.close);
    return started;
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await Promise.allSettled([...closers].map((close) => close()));
    await upstream?.close();
    await dropSchemas([endpoints.schema]);
    await deleteKeyPrefixes([endpoints.keyPrefix]);
  });

  it('off through A\'s admin API: B stops narrowing by announcement, and a restarted B is still off', async () => {
    const first = await start();
    let second = await start();
    expect(await toolsSentThrough(second.instance.url)).toBeLessThan(hermesTools.length);

    const response = await fetch(`${first.instance.url}/v1/config/router`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clusterAdminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'off' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ mode: 'off', revision: 1 });
    const elapsed = await within(announcementWaitMs, async () => (await toolsSentThrough(second.instance.url)) === hermesTools.length);
    console.info(`router mode off reached the other instance (a full surface sent through it) in ${elapsed.toFixed(1)} ms`);

    await second.close();
    closers.delete(second.close);
    second = await start();
    expect(second.instance.gateway.toolRoutingMode).toBe('off');
    expect(await toolsSentThrough(second.instance.url)).toBe(hermesTools.length);
    const status = await fetch(`${second.instance.url}/v1/config/router`, { headers: { authorization: `Bearer ${clusterAdminKey}` } });
    expect(await status.json()).toMatchObject({ mode: 'off', revision: 1 });

    // And back on, through B this time: A follows.
    const on = await fetch(`${second.instance.url}/v1/config/router`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clusterAdminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'on' }),
    });
    expect(on.status).toBe(200);
    await within(announcementWaitMs, async () => (await toolsSentThrough(first.instance.url)) < hermesTools.length);
  });
});
