import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { bearer, call, openAiChat } from '../security/security-client.js';
import { capturingLogger, clusterAdminKey, startInstance, within } from './cluster-harness.js';
import { TcpProxy } from './tcp-proxy.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the key and limit outage tests: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const admin = bearer(clusterAdminKey);

describe.skipIf(!available)('keys and per-key limits when the cluster storage is away', () => {
  const schemas: string[] = [];
  const prefixes: string[] = [];
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    await dropSchemas(schemas);
    await deleteKeyPrefixes(prefixes);
  });

  it('Redis down: a rate-limited key is admitted uncounted, one warning, counted in /metrics; limits hold again when Redis is back', async () => {
    const redis = new URL(redisTestUrl);
    const proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.start();
    const endpoints = { postgresUrl: postgresTestUrl, redisUrl: `redis://127.0.0.1:${proxy.port}`, schema: uniqueSchemaName('keyoutage'), keyPrefix: uniqueKeyPrefix('keyoutage') };
    schemas.push(endpoints.schema);
    prefixes.push(endpoints.keyPrefix);
    const { logger, lines } = capturingLogger();
    const { instance, close } = await startInstance(upstream.url, endpoints, { logger });
    try {
      const created = await call(`${instance.url}/v1/admin/keys`, { method: 'POST', headers: admin, json: { name: 'one a minute', limits: { requests_per_minute: 1 } } });
      const { key } = created.body as { key: string };
      const chat = async (): Promise<number> => (await call(`${instance.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status;
      const failedOpen = async (): Promise<number> =>
        Number((await call(`${instance.url}/metrics`, { headers: admin })).text.match(/^hermes_router_key_limit_fail_open_total (\d+)/m)?.[1]);
      expect(await chat()).toBe(200);
      expect(await chat()).toBe(429);

      await proxy.stop();
      expect([await chat(), await chat(), await chat()]).toEqual([200, 200, 200]);
      expect(await failedOpen()).toBe(3);
      const warnings = lines.filter((line) => String(line.msg).startsWith('per-key limit counters unreachable'));
      expect(warnings, JSON.stringify(lines)).toHaveLength(1);

      await proxy.start();
      // The minute's window in Redis still holds the request admitted before the outage.
      await within(15_000, async () => (await chat()) === 429);
      expect(await failedOpen()).toBeGreaterThanOrEqual(3);
    } finally {
      await close();
      await proxy.stop();
    }
  });

  it('Postgres down: known keys keep working, creating or revoking one answers 503 and changes nothing; both work again when it is back', async () => {
    const postgres = new URL(postgresTestUrl);
    const proxy = new TcpProxy(postgres.hostname, Number(postgres.port || 5432));
    await proxy.start();
    const url = new URL(postgresTestUrl);
    url.port = String(proxy.port);
    const endpoints = { postgresUrl: url.toString(), redisUrl: redisTestUrl, schema: uniqueSchemaName('keypg'), keyPrefix: uniqueKeyPrefix('keypg') };
    schemas.push(endpoints.schema);
    prefixes.push(endpoints.keyPrefix);
    const { instance, close } = await startInstance(upstream.url, endpoints, {
      resyncMs: 100,
      // As behind a load balancer: revoking the only key must not reopen chat on this loopback bind.
      configure: (config) => ({ ...config, auth: { require_keys: 'always' } }),
    });
    try {
      const created = await call(`${instance.url}/v1/admin/keys`, { method: 'POST', headers: admin, json: { name: 'before the outage' } });
      expect(created.status).toBe(201);
      const { id, key } = created.body as { id: string; key: string };

      await proxy.stop();
      expect((await call(`${instance.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
      const refused = await call(`${instance.url}/v1/admin/keys`, { method: 'POST', headers: admin, json: { name: 'during the outage' } });
      expect(refused.status).toBe(503);
      expect(refused.text).toMatch(/Postgres\) is unreachable, so nothing was changed/);
      expect(refused.text).not.toMatch(/hrk_/);
      expect((await call(`${instance.url}/v1/admin/keys/${id}`, { method: 'DELETE', headers: admin })).status).toBe(503);
      const listed = (await call(`${instance.url}/v1/admin/keys`, { headers: admin })).body as { keys: { name: string }[] };
      expect(listed.keys.map((listedKey) => listedKey.name)).toEqual(['before the outage']);

      await proxy.start();
      await within(15_000, async () => (await call(`${instance.url}/v1/admin/keys/${id}`, { method: 'DELETE', headers: admin })).status === 200);
      expect((await call(`${instance.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(401);
    } finally {
      await close();
      await proxy.stop();
    }
  });
});
