import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeDashboardSessionStoreContract } from '../../src/store/dashboard-session-store.contract.js';
import { dashboardAuthRoute } from '../../src/security/dashboard/login-route.js';
import { MemoryDashboardSessionStore } from '../../src/store/memory/memory-dashboard-session-store.js';
import { DashboardSessions } from '../../src/security/dashboard/sessions.js';
import { createRedisCommandClient, closeRedisClient } from '../../src/store/redis/redis-connection.js';
import { RedisDashboardSessionStore } from '../../src/store/redis/redis-dashboard-session-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import { rawCall } from './security-client.js';

describeDashboardSessionStoreContract('memory', ({ now }) => new MemoryDashboardSessionStore({ now }));

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis dashboard session store contract: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis dashboard session store', () => {
  const prefix = uniqueKeyPrefix('dashboard-sessions');
  const clients = [new Redis(redisTestUrl), new Redis(redisTestUrl)] as const;
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    for (const client of clients) client.disconnect();
  });
  const prefixes = new WeakMap<object, string>();
  describeDashboardSessionStoreContract(
    'redis',
    ({ now }) => {
      const keyPrefix = `${prefix}${++run}:`;
      const store = new RedisDashboardSessionStore({ client: clients[0], keyPrefix, now });
      prefixes.set(store, keyPrefix);
      return store;
    },
    // Another connection on the same prefix: what a second instance sees.
    (store) => new RedisDashboardSessionStore({ client: clients[1], keyPrefix: prefixes.get(store) ?? prefix }),
    'server',
  );

  it('stores the session as JSON under <prefix>dashboard-session:<hash>, with the ttl as PX', async () => {
    const keyPrefix = `${prefix}layout:`;
    const store = new RedisDashboardSessionStore({ client: clients[0], keyPrefix });
    const session = { csrfToken: 'token', expiresAt: Date.now() + 30_000 };
    await store.save('abc', session, 30_000);
    expect(JSON.parse((await clients[1].get(`${keyPrefix}dashboard-session:abc`)) ?? 'null')).toEqual(session);
    const ttl = await clients[1].pttl(`${keyPrefix}dashboard-session:abc`);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });
});

describe('dashboard logins while the session store is unreachable (fail closed)', () => {
  const adminKey = 'dashboard-admin-key-unreachable-0123';
  // Nothing listens on port 1: every command fails at once, as with Redis down.
  const deadClient = createRedisCommandClient({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 200 });
  afterAll(() => closeRedisClient(deadClient));

  it('DashboardSessions rejects with a 503 GatewayError instead of inventing or accepting a login', async () => {
    const sessions = new DashboardSessions({ ttlMs: 60_000, secureCookies: false, store: new RedisDashboardSessionStore({ client: deadClient, keyPrefix: 'unused:' }) });
    await expect(sessions.open()).rejects.toMatchObject({ status: 503 });
  });

  it('login and a session cookie get 503 in the dashboard format; the admin key as bearer still works', async () => {
    const routes: ReturnType<typeof dashboardAuthRoute>[] = [];
    const harness = await startHarness(defaultConfig, {
      env: { HERMES_ROUTER_ADMIN_KEY: adminKey },
      stores: { dashboardSessions: new RedisDashboardSessionStore({ client: deadClient, keyPrefix: 'unused:' }) },
      extraRoutes: [(request, response, path) => (routes[0] ? routes[0](request, response, path) : false)],
    });
    try {
      routes.push(dashboardAuthRoute(harness.gateway.security));
      const url = harness.gateway.url;
      const login = await rawCall(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ admin_key: adminKey }) });
      expect(login.status).toBe(503);
      expect(login.headers['set-cookie']).toBeUndefined();
      expect(login.headers['content-security-policy']).toBeDefined();
      expect((JSON.parse(login.text) as { error: { message: string } }).error.message).toMatch(/cannot be checked/);
      const withCookie = await rawCall(`${url}/v1/admin/keys`, { headers: { cookie: 'hermes_router_session=made-up-or-real' } });
      expect(withCookie.status).toBe(503);
      expect((await rawCall(`${url}/v1/admin/keys`, { headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(200);
      expect((await rawCall(`${url}/v1/admin/keys`, {})).status).toBe(401);
    } finally {
      await harness.close();
    }
  });
});
