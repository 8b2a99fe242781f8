import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { DashboardSessionStore } from './dashboard-session-store.js';

/**
 * The behaviour every `DashboardSessionStore` must have (memory, Redis). The factory gives a fresh, empty store;
 * `twin` (when the store is shared) opens a second handle on the same sessions, as a second instance would.
 */
export function describeDashboardSessionStoreContract(
  name: string,
  factory: () => DashboardSessionStore,
  twin?: (store: DashboardSessionStore) => DashboardSessionStore,
): void {
  describe(`DashboardSessionStore contract: ${name}`, () => {
    const inAMinute = () => ({ csrfToken: 'csrf-token-1', expiresAt: Date.now() + 60_000 });

    it('keeps a session until it is deleted, and knows nothing of other ids', async () => {
      const store = factory();
      expect(await store.load('hash-a')).toBeUndefined();
      const session = inAMinute();
      await store.save('hash-a', session, 60_000);
      expect(await store.load('hash-a')).toEqual(session);
      expect(await store.load('hash-b')).toBeUndefined();
      await store.delete('hash-a');
      expect(await store.load('hash-a')).toBeUndefined();
      await store.delete('hash-never-saved');
    });

    it('keeps sessions apart', async () => {
      const store = factory();
      await store.save('hash-a', { csrfToken: 'a', expiresAt: Date.now() + 60_000 }, 60_000);
      await store.save('hash-b', { csrfToken: 'b', expiresAt: Date.now() + 60_000 }, 60_000);
      await store.delete('hash-a');
      expect(await store.load('hash-a')).toBeUndefined();
      expect((await store.load('hash-b'))?.csrfToken).toBe('b');
    });

    it('forgets a session once its time is up', async () => {
      const store = factory();
      await store.save('short', { csrfToken: 'short', expiresAt: Date.now() + 120 }, 120);
      expect((await store.load('short'))?.csrfToken).toBe('short');
      await sleep(200);
      expect(await store.load('short')).toBeUndefined();
    });

    it('refuses a session whose expiry has passed even if the store still holds it', async () => {
      const store = factory();
      await store.save('stale', { csrfToken: 'stale', expiresAt: Date.now() - 1 }, 60_000);
      expect(await store.load('stale')).toBeUndefined();
    });

    it.skipIf(twin === undefined)('a session saved through one handle is read and ended through another', async () => {
      const first = factory();
      const second = twin?.(first) ?? first;
      const session = inAMinute();
      await first.save('shared', session, 60_000);
      expect(await second.load('shared')).toEqual(session);
      await second.delete('shared');
      expect(await first.load('shared')).toBeUndefined();
    });
  });
}
