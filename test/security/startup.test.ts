import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { startGateway } from '../../src/server/start-gateway.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import { bearer, call, openAiChat } from './security-client.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function dataDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'hermes-router-security-'));
  directories.push(directory);
  return directory;
}

describe('binding', () => {
  it('refuses a non-loopback bind without an admin key, saying what to set', async () => {
    await expect(startHarness((upstream) => ({ ...defaultConfig(upstream), server: { host: '0.0.0.0' } }))).rejects.toThrow(
      /HERMES_ROUTER_ADMIN_KEY.*127\.0\.0\.1/s,
    );
  });

  it('off loopback with an admin key, every chat request needs a key even with no application key', async () => {
    const harness = await startHarness((upstream) => ({ ...defaultConfig(upstream), server: { host: '0.0.0.0' } }), {
      env: { HERMES_ROUTER_ADMIN_KEY: 'a-long-admin-key-for-the-test' },
    });
    try {
      const url = harness.gateway.url.replace('0.0.0.0', '127.0.0.1');
      expect((await call(`${url}/v1/chat/completions`, { method: 'POST', json: openAiChat })).status).toBe(401);
      expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer('a-long-admin-key-for-the-test'), json: openAiChat })).status).toBe(200);
      expect((await call(`${url}/health`)).status).toBe(200);
    } finally {
      await harness.close();
    }
  });

  it('auth.require_keys: always makes loopback chat need a key too', async () => {
    const harness = await startHarness((upstream) => ({ ...defaultConfig(upstream), auth: { require_keys: 'always' } }), {
      env: { HERMES_ROUTER_ADMIN_KEY: 'a-long-admin-key-for-the-test' },
    });
    try {
      expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', json: openAiChat })).status).toBe(401);
    } finally {
      await harness.close();
    }
  });
});

describe('the generated admin key', () => {
  it('is generated once on a fresh data dir, stored only as a hash (0600), and works after a restart', async () => {
    const dataDir = dataDirectory();
    const config = parseConfig({ server: { port: 0 } }, 'test');
    const first = await startGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }), generateAdminKey: true });
    const secret = first.generatedAdminKey;
    await first.close();
    expect(secret).toMatch(/^hra_[A-Za-z0-9_-]{43}$/);
    const file = readFileSync(join(dataDir, 'keys.json'), 'utf8');
    expect(file).not.toContain(secret);
    expect(statSync(join(dataDir, 'keys.json')).mode & 0o777).toBe(0o600);

    const second = await startGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }), generateAdminKey: true });
    try {
      expect(second.generatedAdminKey).toBeUndefined();
      expect((await call(`${second.url}/v1/admin/keys`, { headers: bearer(secret ?? '') })).status).toBe(200);
      expect((await call(`${second.url}/v1/admin/keys`, { headers: bearer(`${secret ?? ''}x`) })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
