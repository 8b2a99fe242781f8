import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardAuthRoute } from '../../src/security/dashboard/login-route.js';
import { dashboardContentSecurityPolicy } from '../../src/security/dashboard/csp.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { rawCall } from './security-client.js';

const adminKey = 'dashboard-admin-key-0123456789';
let harness: Harness;
let url: string;

beforeAll(async () => {
  // The dashboard mounts the login route as an extra route; security comes from the running gateway.
  const routes: ((...args: Parameters<ReturnType<typeof dashboardAuthRoute>>) => Promise<boolean>)[] = [];
  harness = await startHarness(defaultConfig, {
    env: { HERMES_ROUTER_ADMIN_KEY: adminKey },
    extraRoutes: [(request, response, path) => (routes[0] ? routes[0](request, response, path) : false)],
  });
  routes.push(dashboardAuthRoute(harness.gateway.security));
  url = harness.gateway.url;
});
afterAll(() => harness.close());

const json = { 'content-type': 'application/json' };

async function login(): Promise<{ cookie: string; csrf: string; setCookie: string; csp: string }> {
  const answer = await rawCall(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ admin_key: adminKey }) });
  expect(answer.status).toBe(200);
  const setCookie = String((answer.headers['set-cookie'] as string[] | undefined)?.[0]);
  return { cookie: setCookie.split(';')[0] ?? '', csrf: (JSON.parse(answer.text) as { csrf_token: string }).csrf_token, setCookie, csp: String(answer.headers['content-security-policy']) };
}

describe('dashboard login', () => {
  it('sets an HttpOnly, SameSite=Strict cookie and sends the CSP with no inline script and no external origin', async () => {
    const { setCookie, csp } = await login();
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toContain(adminKey);
    expect(csp).toBe(dashboardContentSecurityPolicy);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  });

  it('refuses a wrong admin key', async () => {
    const answer = await rawCall(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ admin_key: 'wrong' }) });
    expect(answer.status).toBe(401);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('the cookie reads the admin API; changing state needs the CSRF token and an allowed Origin', async () => {
    const { cookie, csrf } = await login();
    expect((await rawCall(`${url}/v1/admin/keys`, { headers: { cookie } })).status).toBe(200);
    const create = (headers: Record<string, string>) =>
      rawCall(`${url}/v1/admin/keys`, { method: 'POST', headers: { ...json, cookie, ...headers }, body: JSON.stringify({ name: 'from-dashboard' }) });
    expect((await create({})).status).toBe(403);
    expect((await create({ 'x-csrf-token': 'forged' })).status).toBe(403);
    expect((await create({ 'x-csrf-token': csrf, origin: 'https://attacker.example' })).status).toBe(403);
    expect((await create({ 'x-csrf-token': csrf, origin: url })).status).toBe(201);
    const session = await rawCall(`${url}/auth/session`, { headers: { cookie } });
    expect(JSON.parse(session.text)).toEqual({ csrf_token: csrf });
  });

  it('logout ends the session', async () => {
    const { cookie, csrf } = await login();
    expect((await rawCall(`${url}/auth/logout`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } })).status).toBe(200);
    expect((await rawCall(`${url}/v1/admin/keys`, { headers: { cookie } })).status).toBe(401);
  });

  it('a rebinding Host cannot log in', async () => {
    const answer = await rawCall(`${url}/auth/login`, { method: 'POST', headers: { ...json, host: 'rebind.attacker.example' }, body: JSON.stringify({ admin_key: adminKey }) });
    expect(answer.status).toBe(403);
  });
});
