import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { createApplicationKey } from '../../src/security/create-key.js';
import { FileKeyStore } from '../../src/store/keys/file-key-store.js';
import { keyStoreContract } from '../../src/security/key-store.contract.js';
import { MemoryKeyStore } from '../../src/store/keys/memory-key-store.js';
import { hashSecret } from '../../src/security/secret-hash.js';
import { MemoryChangeHub } from '../../src/store/memory-change-announcements.js';
import { PostgresKeyStore } from '../../src/store/postgres/postgres-key-store.js';
import type { PostgresKeyStoreOptions } from '../../src/store/postgres/postgres-key-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-router-key-stores-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

keyStoreContract('memory', () => ({ store: new MemoryKeyStore() }));
keyStoreContract('file', () => {
  const path = join(directory, `keys-${(files += 1)}.json`);
  return { store: new FileKeyStore(path), reopen: () => new FileKeyStore(path) };
});

const available = await postgresAvailable();
if (!available) console.warn(`skipping the Postgres key store contract: no server at ${postgresTestUrl}`);

describe.skipIf(!available)('postgres key store', () => {
  const schemas: string[] = [];
  const stores: PostgresKeyStore[] = [];
  const open = async (schema: string, options: Partial<PostgresKeyStoreOptions> = {}): Promise<PostgresKeyStore> => {
    const store = new PostgresKeyStore({ url: postgresTestUrl, schema, maxConnections: 2, ...options });
    stores.push(store);
    await store.start();
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await dropSchemas(schemas);
  });

  keyStoreContract('postgres', async () => {
    const schema = uniqueSchemaName('keys');
    schemas.push(schema);
    return { store: await open(schema), reopen: () => open(schema) };
  });

  it('a key added or revoked on one instance reaches another through the announcement, well before the resync', async () => {
    const schema = uniqueSchemaName('keys');
    schemas.push(schema);
    const hub = new MemoryChangeHub();
    const first = await open(schema, { changes: hub.member(), resyncIntervalMs: 60_000 });
    const second = await open(schema, { changes: hub.member(), resyncIntervalMs: 60_000 });
    const { key } = await createApplicationKey(first, { name: 'shared', scopes: ['chat'], limits: {} });
    await expect.poll(() => second.find(key.id)?.name, { timeout: 15_000, interval: 5 }).toBe('shared');
    expect(await second.revoke(key.id, new Date())).toBe(true);
    await expect.poll(() => first.find(key.id)?.revoked_at, { timeout: 15_000, interval: 5 }).toBeDefined();
    await second.setAdminHash(hashSecret('rotated'));
    await expect.poll(() => first.adminHash(), { timeout: 15_000, interval: 5 }).toBe(hashSecret('rotated'));
  });

  it('without announcements, the periodic resync brings changes', async () => {
    const schema = uniqueSchemaName('keys');
    schemas.push(schema);
    const first = await open(schema, { resyncIntervalMs: 60_000 });
    const second = await open(schema, { resyncIntervalMs: 50 });
    const { key } = await createApplicationKey(first, { name: 'late', scopes: ['chat'], limits: {} });
    expect(second.find(key.id)).toBeUndefined();
    await expect.poll(() => second.find(key.id)?.name, { timeout: 15_000, interval: 10 }).toBe('late');
  });

  it('revoking a key this instance has not seen yet still revokes it (Postgres decides)', async () => {
    const schema = uniqueSchemaName('keys');
    schemas.push(schema);
    const first = await open(schema, { resyncIntervalMs: 60_000 });
    const second = await open(schema, { resyncIntervalMs: 60_000 });
    const { key } = await createApplicationKey(first, { name: 'unseen', scopes: ['chat'], limits: {} });
    expect(second.find(key.id)).toBeUndefined();
    expect(await second.revoke(key.id, new Date())).toBe(true);
    await first.reload();
    expect(first.find(key.id)?.revoked_at).toBeDefined();
  });
});

describe('postgres key store with Postgres unreachable', () => {
  it('refuses writes with a 503 that says nothing changed, and keeps answering reads', async () => {
    // Port 1 refuses connections at once: no server is needed for this case.
    const store = new PostgresKeyStore({ url: 'postgres://postgres@127.0.0.1:1/none', schema: 'unreachable', connectTimeoutMs: 200, resyncIntervalMs: 60_000 });
    try {
      await expect(store.start()).rejects.toThrow();
      expect(store.list()).toEqual([]);
      const creating = createApplicationKey(store, { name: 'nowhere', scopes: ['chat'], limits: {} });
      await expect(creating).rejects.toBeInstanceOf(GatewayError);
      await expect(creating).rejects.toMatchObject({ status: 503, message: /unreachable, so nothing was changed/ });
      expect(store.list()).toEqual([]);
      await expect(store.revoke('0123456789', new Date())).rejects.toMatchObject({ status: 503 });
      await expect(store.setAdminHash(hashSecret('x'))).rejects.toMatchObject({ status: 503 });
      expect(store.adminHash()).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
