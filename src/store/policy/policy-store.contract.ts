import { describe, expect, it } from 'vitest';
import type { PolicyDocument } from './policy-document.js';
import { PolicyRevisionConflict } from './policy-store.js';
import type { PolicyStore } from './policy-store.js';

function next(document: PolicyDocument, name: string, enabled: boolean): PolicyDocument {
  return { ...document, revision: document.revision + 1, models: { ...document.models, [name]: { enabled, updatedAt: new Date(0).toISOString() } } };
}

/** The contract every PolicyStore passes (file now, Postgres later). `open` gives a fresh, empty store. */
export function describePolicyStoreContract(name: string, open: () => { store: PolicyStore; reopen: () => PolicyStore }): void {
  describe(`PolicyStore contract: ${name}`, () => {
    it('starts empty at revision 0', async () => {
      const { store } = open();
      expect(await store.load()).toEqual({ version: 1, revision: 0, models: {} });
    });

    it('saves with compare-and-set on the revision', async () => {
      const { store } = open();
      const first = next(await store.load(), 'a/x', false);
      await store.save(first, 0);
      expect(await store.load()).toEqual(first);
      await expect(store.save(next(first, 'a/y', false), 0)).rejects.toBeInstanceOf(PolicyRevisionConflict);
      expect(await store.load()).toEqual(first);
    });

    it('keeps the tool routing mode and an audit of both kinds of change', async () => {
      const { store, reopen } = open();
      const saved: PolicyDocument = {
        ...next(await store.load(), 'a/x', false),
        toolRouting: { mode: 'shadow', updatedAt: new Date(0).toISOString() },
        audit: [
          { at: 't', model: 'a/x', enabled: false, by: 'cli', revision: 1 },
          { at: 't', toolRoutingMode: 'shadow', by: 'admin-api', revision: 1 },
        ],
      };
      await store.save(saved, 0);
      expect(await reopen().load()).toEqual(saved);
    });

    it('keeps what it saved across a reopen', async () => {
      const { store, reopen } = open();
      const saved = next(next(await store.load(), 'a/x', false), 'b/y', true);
      await store.save(saved, 0);
      expect(await reopen().load()).toEqual(saved);
    });
  });
}
