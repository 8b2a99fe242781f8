import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applicationKeyId, createApplicationKey } from '../../src/security/create-key.js';
import { DashboardSessions } from '../../src/security/dashboard/sessions.js';
import { FileKeyStore } from '../../src/store/keys/file-key-store.js';
import { allowedHostNames, hostAllowed, hostName, originAllowed } from '../../src/security/host-origin.js';
import { isLoopbackHost } from '../../src/security/loopback.js';
import { hashSecret, secretHint, secretMatches } from '../../src/security/secret-hash.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-router-primitives-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function fakeRequest(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('secrets', () => {
  it('hash, match, hint', () => {
    const hash = hashSecret('hrk_x_secret');
    expect(secretMatches('hrk_x_secret', hash)).toBe(true);
    expect(secretMatches('hrk_x_secreT', hash)).toBe(false);
    expect(secretMatches('', hash)).toBe(false);
    expect(secretHint('hrk_0123456789_abcdefgh')).toBe('…efgh');
    expect(secretHint('short')).toBe('…');
  });

  it('parses the id out of an application key and nothing else', () => {
    expect(applicationKeyId('hrk_0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq')).toBe('0123456789');
    expect(applicationKeyId('sk-0123456789')).toBeUndefined();
    expect(applicationKeyId('hrk_0123456789_short')).toBeUndefined();
  });
});

describe('FileKeyStore', () => {
  it('two stores on one file see each other’s changes (the CLI beside a live gateway)', async () => {
    const path = join(directory, 'keys.json');
    const gateway = new FileKeyStore(path);
    const cli = new FileKeyStore(path);
    const { key } = await createApplicationKey(cli, { name: 'a', scopes: ['chat'], limits: {} });
    expect(gateway.find(key.id)?.name).toBe('a');
    expect(await cli.revoke(key.id, new Date())).toBe(true);
    expect(gateway.find(key.id)?.revoked_at).toBeDefined();
    expect(await gateway.revoke(key.id, new Date())).toBe(false);
  });

  it('a damaged key file refuses loudly instead of opening the gateway', () => {
    const path = join(directory, 'broken.json');
    writeFileSync(path, JSON.stringify({ version: 1, keys: [{ id: 'nope' }] }));
    expect(() => new FileKeyStore(path)).toThrow(/not a valid key file/);
  });
});

describe('hosts and origins', () => {
  it('knows loopback binds', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.4', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('allows local names and configured extras, refuses rebinding names and foreign or null origins', () => {
    const allowed = allowedHostNames('127.0.0.1', ['router.internal:8319']);
    expect(hostName('[::1]:8319')).toBe('::1');
    expect(hostAllowed(fakeRequest({ host: 'localhost:8319' }), allowed)).toBe(true);
    expect(hostAllowed(fakeRequest({ host: 'router.internal' }), allowed)).toBe(true);
    expect(hostAllowed(fakeRequest({ host: 'evil.example:8319' }), allowed)).toBe(false);
    expect(hostAllowed(fakeRequest({}), allowed)).toBe(true);
    expect(originAllowed(fakeRequest({ origin: 'http://127.0.0.1:8319' }), allowed)).toBe(true);
    expect(originAllowed(fakeRequest({ origin: 'https://evil.example' }), allowed)).toBe(false);
    expect(originAllowed(fakeRequest({ origin: 'null' }), allowed)).toBe(false);
    expect(originAllowed(fakeRequest({ origin: 'file://' }), allowed)).toBe(false);
  });
});

describe('DashboardSessions', () => {
  it('finds a session by its cookie until it expires; the CSRF token must match exactly', async () => {
    let now = 1_000;
    const sessions = new DashboardSessions({ ttlMs: 10_000, secureCookies: true, now: () => now });
    const { setCookie, csrfToken } = await sessions.open();
    expect(setCookie).toMatch(/; Secure$/);
    const cookie = setCookie.split(';')[0] ?? '';
    const request = fakeRequest({ cookie: `other=1; ${cookie}`, 'x-csrf-token': csrfToken });
    const session = await sessions.find(request);
    expect(session).toBeDefined();
    expect(session && sessions.csrfValid(request, session)).toBe(true);
    expect(session && sessions.csrfValid(fakeRequest({ cookie, 'x-csrf-token': `${csrfToken}x` }), session)).toBe(false);
    now += 10_001;
    expect(await sessions.find(request)).toBeUndefined();
  });
});
