import { describe, expect, it } from 'vitest';
import { createApplicationKey } from './create-key.js';
import type { KeyStore } from '../store/keys/key-store.js';
import { activeKeys } from '../store/keys/key-store.js';
import { hashSecret, secretMatches } from './secret-hash.js';

/**
 * What `open` gives: a fresh, empty store, and for a store kept outside the process (file, Postgres) a way to
 * open a second one on the same storage, as another process or instance would.
 */
export interface OpenedKeyStore {
  store: KeyStore;
  reopen?: () => Promise<KeyStore> | KeyStore;
}

/** The behaviour every KeyStore implementation must have; each implementation's test calls this once. */
export function keyStoreContract(name: string, open: () => Promise<OpenedKeyStore> | OpenedKeyStore): void {
  describe(`KeyStore contract: ${name}`, () => {
    it('stores a created key by hash only, and finds it by id', async () => {
      const { store } = await open();
      const { key, secret } = await createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: { requests_per_minute: 5 } });
      const found = store.find(key.id);
      expect(found?.name).toBe('a');
      expect(found?.limits).toEqual({ requests_per_minute: 5 });
      expect(JSON.stringify(store.list())).not.toContain(secret);
      expect(found && secretMatches(secret, found.hash)).toBe(true);
    });

    it('refuses a duplicate id', async () => {
      const { store } = await open();
      const { key } = await createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      await expect(store.add({ ...key, name: 'copy' })).rejects.toThrow();
      expect(store.find(key.id)?.name).toBe('a');
      expect(store.list()).toHaveLength(1);
    });

    it('revokes once; revoked keys stay listed but are not active', async () => {
      const { store } = await open();
      const { key } = await createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      await createApplicationKey(store, { name: 'b', scopes: ['chat'], limits: {} });
      expect(await store.revoke(key.id, new Date('2026-01-01T00:00:00Z'))).toBe(true);
      expect(await store.revoke(key.id, new Date())).toBe(false);
      expect(await store.revoke('ffffffffff', new Date())).toBe(false);
      expect(store.find(key.id)?.revoked_at).toBe('2026-01-01T00:00:00.000Z');
      expect(store.list()).toHaveLength(2);
      expect(activeKeys(store).map((active) => active.name)).toEqual(['b']);
    });

    it('lists keys in the order they were added', async () => {
      const { store } = await open();
      for (const keyName of ['first', 'second', 'third']) await createApplicationKey(store, { name: keyName, scopes: ['chat'], limits: {} });
      expect(store.list().map((key) => key.name)).toEqual(['first', 'second', 'third']);
    });

    it('keeps the admin hash', async () => {
      const { store } = await open();
      expect(store.adminHash()).toBeUndefined();
      await store.setAdminHash(hashSecret('admin'));
      expect(store.adminHash()).toBe(hashSecret('admin'));
      await store.setAdminHash(hashSecret('replaced'));
      expect(store.adminHash()).toBe(hashSecret('replaced'));
    });

    it('list returns copies: editing them changes nothing stored', async () => {
      const { store } = await open();
      await createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      const [listed] = store.list();
      if (listed) listed.name = 'changed';
      expect(store.list()[0]?.name).toBe('a');
    });

    it('a second store on the same storage sees keys, revocations and the admin hash', async (context) => {
      const { store, reopen } = await open();
      if (!reopen) {
        context.skip();
        return;
      }
      const { key, secret } = await createApplicationKey(store, { name: 'kept', scopes: ['chat', 'embeddings'], limits: { tokens_per_day: 9, models: ['a/b'] } });
      const { key: revoked } = await createApplicationKey(store, { name: 'gone', scopes: ['chat'], limits: {} });
      await store.revoke(revoked.id, new Date('2026-02-03T04:05:06.789Z'));
      await store.setAdminHash(hashSecret('admin'));
      const other = await reopen();
      expect(other.find(key.id)).toEqual(key);
      expect(other.find(key.id) && secretMatches(secret, other.find(key.id)?.hash ?? '')).toBe(true);
      expect(other.find(revoked.id)?.revoked_at).toBe('2026-02-03T04:05:06.789Z');
      expect(other.adminHash()).toBe(hashSecret('admin'));
      // Both write to one storage: the second refuses what the first already has.
      await expect(other.add(key)).rejects.toThrow();
      expect(await other.revoke(revoked.id, new Date())).toBe(false);
    });
  });
}
