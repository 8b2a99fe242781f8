import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import { clusterAdminKey, type ClusterPair, startClusterPair, startInstance, within } from './cluster-harness.js';
import { TcpProxy } from './tcp-proxy.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared dashboard login test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const json = { 'content-type': 'application/json' };

async function login(instance: ConfiguredGateway): Promise<{ cookie: string; csrf: string }> {
  const answer = await fetch(`${instance.url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ admin_key: clusterAdminKey }) });
  expect(answer.status).toBe(200);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(cookie).toMatch(/^hermes_router_session=./);
  return { cookie, csrf: ((await answer.json()) as { csrf_token: string }).csrf_token };
}

describe.skipIf(!available)('a dashboard login shared by two instances (sessions in Redis)', () => {
  let pair: ClusterPair;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;

  beforeAll(async () => {
    pair = await startClusterPair('dashboard_login');
    ({ first, second } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('logged in through A, the dashboard and admin API on B accept the cookie and CSRF token; logout on B ends it on A', async () => {
    const { cookie, csrf } = await login(first);
    const overviewOn = (instance: ConfiguredGateway) => fetch(`${instance.url}/dashboard/api/overview`, { headers: { cookie } });

    // B never saw this login: it reads it from Redis.
    expect((await overviewOn(second)).status).toBe(200);
    const session = await fetch(`${second.url}/auth/session`, { headers: { cookie } });
    expect(await session.json()).toEqual({ csrf_token: csrf });
    const createOnSecond = (token: string) =>
      fetch(`${second.url}/v1/admin/keys`, {
        method: 'POST',
        headers: { ...json, cookie, 'x-csrf-token': token, origin: second.url },
        body: JSON.stringify({ name: `from-dashboard-${token.length}` }),
      });
    expect((await createOnSecond('forged')).status).toBe(403);
    expect((await createOnSecond(csrf)).status).toBe(201);

    const logout = await fetch(`${second.url}/auth/logout`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, origin: second.url } });
    expect(logout.status).toBe(200);
    expect((await overviewOn(first)).status).toBe(401);
    expect((await fetch(`${first.url}/v1/admin/keys`, { headers: { cookie } })).status).toBe(401);
    expect((await fetch(`${first.url}/auth/session`, { headers: { cookie } })).status).toBe(401);
  });

  it('a cookie no instance issued is refused on both', async () => {
    const cookie = 'hermes_router_session=not-a-session-anyone-made';
    for (const instance of [first, second]) {
      expect((await fetch(`${instance.url}/dashboard/api/overview`, { headers: { cookie } })).status).toBe(401);
    }
  });
});

describe.skipIf(!available)('dashboard logins while Redis is away (fail closed)', () => {
  it('a live login gets 503 (never a guess), the admin key still works, and the login holds again once Redis is back', async () => {
    const redis = new URL(redisTestUrl);
    const proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.start();
    const upstream = await startFakeUpstream();
    const endpoints = { postgresUrl: postgresTestUrl, redisUrl: `redis://127.0.0.1:${proxy.port}`, schema: uniqueSchemaName('loginoutage'), keyPrefix: uniqueKeyPrefix('loginoutage') };
    const { instance, close } = await startInstance(upstream.url, endpoints);
    try {
      const { cookie } = await login(instance);
      const overview = async () => (await fetch(`${instance.url}/dashboard/api/overview`, { headers: { cookie } })).status;
      expect(await overview()).toBe(200);

      await proxy.stop();
      const refused = await fetch(`${instance.url}/v1/admin/keys`, { headers: { cookie } });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/cannot be checked/);
      expect(await overview()).toBe(503);
      const newLogin = await fetch(`${instance.url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ admin_key: clusterAdminKey }) });
      expect(newLogin.status).toBe(503);
      expect(newLogin.headers.get('set-cookie')).toBeNull();
      expect((await fetch(`${instance.url}/v1/admin/keys`, { headers: { authorization: `Bearer ${clusterAdminKey}` } })).status).toBe(200);

      await proxy.start();
      await within(15_000, async () => (await overview()) === 200);
    } finally {
      await close();
      await proxy.stop();
      await upstream.close();
      await dropSchemas([endpoints.schema]);
      await deleteKeyPrefixes([endpoints.keyPrefix]);
    }
  });
});
