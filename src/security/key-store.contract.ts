import { describe, expect, it } from 'vitest';
import { createApplicationKey } from './create-key.js';
import type { KeyStore } from './key-store.js';
import { activeKeys } from './key-store.js';
import { hashSecret, secretMatches } from './secret-hash.js';

/** The behaviour every KeyStore implementation must have; each implementation's test calls this once. */
export function keyStoreContract(name: string, open: () => KeyStore): void {
  describe(`KeyStore contract: ${name}`, () => {
    it('stores a created key by hash only, and finds it by id', () => {
      const store = open();
      const { key, secret } = createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: { requests_per_minute: 5 } });
      const found = store.find(key.id);
      expect(found?.name).toBe('a');
      expect(found?.limits).toEqual({ requests_per_minute: 5 });
      expect(JSON.stringify(store.list())).not.toContain(secret);
      expect(found && secretMatches(secret, found.hash)).toBe(true);
    });

    it('refuses a duplicate id', () => {
      const store = open();
      const { key } = createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      expect(() => store.add(key)).toThrow();
    });

    it('revokes once; revoked keys stay listed but are not active', () => {
      const store = open();
      const { key } = createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      createApplicationKey(store, { name: 'b', scopes: ['chat'], limits: {} });
      expect(store.revoke(key.id, new Date('2026-01-01T00:00:00Z'))).toBe(true);
      expect(store.revoke(key.id, new Date())).toBe(false);
      expect(store.revoke('ffffffffff', new Date())).toBe(false);
      expect(store.find(key.id)?.revoked_at).toBe('2026-01-01T00:00:00.000Z');
      expect(store.list()).toHaveLength(2);
      expect(activeKeys(store).map((active) => active.name)).toEqual(['b']);
    });

    it('keeps the admin hash', () => {
      const store = open();
      expect(store.adminHash()).toBeUndefined();
      store.setAdminHash(hashSecret('admin'));
      expect(store.adminHash()).toBe(hashSecret('admin'));
    });

    it('list returns copies: editing them changes nothing stored', () => {
      const store = open();
      createApplicationKey(store, { name: 'a', scopes: ['chat'], limits: {} });
      const [listed] = store.list();
      if (listed) listed.name = 'changed';
      expect(store.list()[0]?.name).toBe('a');
    });
  });
}
