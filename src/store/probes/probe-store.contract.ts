import { describe, expect, it } from 'vitest';
import type { ProbeStore } from './probe-store.js';

/** A fresh, empty store, and a second handle on the same storage (as another process would open it). */
export type ProbeStoreFactory = () => { store: ProbeStore; reopen: () => ProbeStore };

/** The behaviour every `ProbeStore` must have (the data-directory file, the cluster's Postgres table). */
export function describeProbeStoreContract(name: string, factory: ProbeStoreFactory): void {
  describe(`ProbeStore contract: ${name}`, () => {
    it('starts empty, and a merged result is read back by another handle on the same storage', async () => {
      const { store, reopen } = factory();
      expect(await store.read()).toEqual({ version: 1, probes: {} });
      const stored = await store.merge('local/talker', { supportsTools: true, supportsVision: false, probedAt: '2026-11-30T08:00:00.000Z' });
      expect(stored).toEqual({ supportsTools: true, supportsVision: false, probedAt: '2026-11-30T08:00:00.000Z' });
      const other = reopen();
      expect(await other.read()).toEqual({
        version: 1,
        probes: { 'local/talker': { supportsTools: true, supportsVision: false, probedAt: '2026-11-30T08:00:00.000Z' } },
      });
      await other.close();
    });

    it('a later run overrides what it judged and keeps what it could not judge', async () => {
      const { store } = factory();
      await store.merge('local/looker', { supportsTools: false, supportsVision: true, probedAt: '2026-11-29T08:00:00.000Z' });
      // Rate limited on the vision probe this time: vision stays as learned, tools and the date move on.
      const stored = await store.merge('local/looker', { supportsTools: true, probedAt: '2026-11-30T08:00:00.000Z' });
      expect(stored).toEqual({ supportsTools: true, supportsVision: true, probedAt: '2026-11-30T08:00:00.000Z' });
      expect((await store.read()).probes['local/looker']).toEqual(stored);
    });

    it('keeps each model apart', async () => {
      const { store } = factory();
      await store.merge('a/one', { supportsTools: true, probedAt: '2026-11-30T08:00:00.000Z' });
      await store.merge('b/two', { supportsVision: false, probedAt: '2026-11-30T08:01:00.000Z' });
      await store.merge('a/one', { supportsVision: true, probedAt: '2026-11-30T08:02:00.000Z' });
      expect((await store.read()).probes).toEqual({
        'a/one': { supportsTools: true, supportsVision: true, probedAt: '2026-11-30T08:02:00.000Z' },
        'b/two': { supportsVision: false, probedAt: '2026-11-30T08:01:00.000Z' },
      });
    });
  });
}
