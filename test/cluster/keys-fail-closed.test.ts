import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { bearer, call, openAiChat } from '../security/security-client.js';
import { clusterAdminKey, startInstance, within } from './cluster-harness.js';
import { TcpProxy } from './tcp-proxy.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the keys fail-closed test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

/**
 * An instance that starts while Postgres is down cannot know which keys exist. With `require_keys: auto` on
 * loopback it used to conclude "no keys, so open" and served requests with no key and with garbage keys. It
 * now refuses every non-admin chat request (503) until the key store has been read once, and /health says why.
 */
describe.skipIf(!available)('an instance started while Postgres is down', () => {
  let upstream: FakeUpstream;
  const schemas: string[] = [];
  const prefixes: string[] = [];
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    await dropSchemas(schemas);
    await deleteKeyPrefixes(prefixes);
  });

  it('refuses a garbage key and no key (require_keys: auto, loopback) until it can read the key store', async () => {
    const postgres = new URL(postgresTestUrl);
    const proxy = new TcpProxy(postgres.hostname, Number(postgres.port || 5432));
    await proxy.start();
    await proxy.stop();
    const url = new URL(postgresTestUrl);
    url.port = String(proxy.port);
    const endpoints = { postgresUrl: url.toString(), redisUrl: redisTestUrl, schema: uniqueSchemaName('keyclosed'), keyPrefix: uniqueKeyPrefix('keyclosed') };
    schemas.push(endpoints.schema);
    prefixes.push(endpoints.keyPrefix);
    const { instance, close } = await startInstance(upstream.url, endpoints, { resyncMs: 200 });
    const chat = async (headers: Record<string, string>) => call(`${instance.url}/v1/chat/completions`, { method: 'POST', headers, json: openAiChat });
    try {
      const garbage = await chat(bearer('not-a-key-at-all'));
      expect(garbage.status).toBe(503);
      expect(garbage.text).toMatch(/key store/);
      expect((await chat({})).status).toBe(503);
      // The operator is never locked out.
      expect((await chat(bearer(clusterAdminKey))).status).toBe(200);
      const health = (await call(`${instance.url}/health`)).body as { status: string; checks: { keys: string } };
      expect(health.status).toBe('degraded');
      expect(health.checks.keys).toMatch(/cannot be read/);

      await proxy.start();
      // Once read: no key exists, so loopback with `auto` is open again (as for one instance with no keys: a
      // key that matches nothing is ignored there).
      await within(10_000, async () => (await chat({})).status === 200);
      expect((await chat(bearer('not-a-key-at-all'))).status).toBe(200);
      // /health also reports the other Postgres-backed parts (the ledger's queued rows, the policy), which
      // catch up on their own retry schedule after the key store: wait for all of them, bounded.
      const healthStatus = async () => ((await call(`${instance.url}/health`)).body as { status: string }).status;
      await within(10_000, async () => (await healthStatus()) === 'ok');
      expect(await healthStatus()).toBe('ok');
    } finally {
      await close();
      await proxy.stop();
    }
  }, 60_000);
});
