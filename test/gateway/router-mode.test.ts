import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRouterMode } from '../../src/tools/router-mode-file.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

const tools = (JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]).map(
  ({ toolset: _toolset, ...tool }) => tool,
);

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness((url) => defaultConfig(url), { env: { HERMES_ROUTER_ADMIN_KEY: 'admin-secret' } });
});
afterAll(() => harness.close());

async function setMode(mode: string, key?: string) {
  const response = await fetch(`${harness.gateway.url}/v1/config/router`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ mode }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function sentToolCount(text: string): Promise<number> {
  await fetch(`${harness.openAiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: text }], tools }),
  });
  return ((harness.upstream.requests.at(-1)?.json as { tools: unknown[] }).tools ?? []).length;
}

describe('router mode through the admin API', () => {
  it('needs the admin key', async () => {
    expect((await setMode('off')).status).toBe(401);
    expect((await setMode('off', 'wrong')).status).toBe(401);
  });

  it('switches live, persists the choice, and rejects unknown modes', async () => {
    expect(await sentToolCount('run the unit tests and fix what fails')).toBeLessThan(tools.length);
    const off = await setMode('off', 'admin-secret');
    expect(off).toMatchObject({ status: 200, body: { mode: 'off', restart_required: false } });
    expect(await sentToolCount('run the integration tests and fix what fails')).toBe(tools.length);
    expect(readRouterMode(harness.gateway.gateway.dataDir)).toBe('off');
    expect((await setMode('sideways', 'admin-secret')).status).toBe(400);
    const status = await fetch(`${harness.gateway.url}/v1/config/router`, { headers: { authorization: 'Bearer admin-secret' } });
    expect(await status.json()).toMatchObject({ mode: 'off' });
    await setMode('on', 'admin-secret');
  });
});
