import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startHarness, defaultConfig } from '../support/gateway-harness.js';
import { bearer, call, openAiChat } from './security-client.js';
import { capturingContext } from '../support/cli-context.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-keys-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const context = capturingContext({ cwd: dataDir });
  const code = await main([...args, '--data-dir', dataDir], context);
  return { code, stdout: context.out(), stderr: context.err() };
}

function lastJson(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

describe('hermes-router keys', () => {
  it('create shows the key once, list shows only its last four characters, revoke ends it, beside a live gateway', async () => {
    const harness = await startHarness(defaultConfig, { dataDir });
    try {
      const created = await run('keys', 'create', '--name', 'ci', '--scopes', 'chat', '--rpm', '30', '--models', 'gpt-test', '--json');
      expect(created.code).toBe(0);
      const output = lastJson(created.stdout);
      const key = String(output.key);
      expect(key).toMatch(/^hrk_[a-f0-9]{10}_/);
      expect(output.limits).toEqual({ requests_per_minute: 30, models: ['gpt-test'] });

      // The running gateway sees the new key on its next request: chat now needs it.
      expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', json: openAiChat })).status).toBe(401);
      expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);

      const listed = await run('keys', 'list');
      expect(listed.code).toBe(0);
      expect(listed.stdout).not.toContain(key);
      expect(listed.stdout).toContain(key.slice(-4));

      expect((await run('keys', 'revoke', String(output.id))).code).toBe(0);
      expect((await run('keys', 'revoke', String(output.id))).code).toBe(1);
      expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    } finally {
      await harness.close();
    }
  });

  it('refuses an unknown scope and a missing name', async () => {
    expect((await run('keys', 'create', '--name', 'x', '--scopes', 'root')).code).toBe(2);
    expect((await run('keys', 'create')).code).toBe(2);
  });

  it('admin-reset prints a new admin key and saves it owner-only for the CLI on this machine', async () => {
    const reset = await run('keys', 'admin-reset', '--json');
    expect(reset.code).toBe(0);
    const secret = String(lastJson(reset.stdout).admin_key);
    expect(secret).toMatch(/^hra_/);
    const file = join(dataDir, 'admin-key');
    expect(lastJson(reset.stdout).key_file).toBe(file);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lastJson((await run('keys', 'list', '--json')).stdout).admin_key).toBe('stored');
  });
});
