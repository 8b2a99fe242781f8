import { describe, expect, it } from 'vitest';
import { contractClock, type StoreExpiry } from './contract-clock.js';
import type { DashboardSessionStore } from './dashboard-session-store.js';

/**
 * The behaviour every `DashboardSessionStore` must have (memory, Redis). The factory gives a fresh, empty store
 * reading the time from `now`; `twin` (when the store is shared) opens a second handle on the same sessions, as a
 * second instance would; `expiry` says who forgets a session whose time is up: the store by `now`, or a server
 * as well (see `contract-clock.ts`).
 */
export function describeDashboardSessionStoreContract(
  name: string,
  factory: (options: { now: () => number }) => DashboardSessionStore,
  twin?: (store: DashboardSessionStore) => DashboardSessionStore,
  expiry: StoreExpiry = 'clock',
): void {
  describe(`DashboardSessionStore contract: ${name}`, () => {
    const clock = contractClock(expiry);
    const open = (): DashboardSessionStore => factory({ now: clock.now });
    const inAMinute = () => ({ csrfToken: 'csrf-token-1', expiresAt: clock.now() + 60_000 });

    it('keeps a session until it is deleted, and knows nothing of other ids', async () => {
      const store = open();
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
      const store = open();
      await store.save('hash-a', { csrfToken: 'a', expiresAt: clock.now() + 60_000 }, 60_000);
      await store.save('hash-b', { csrfToken: 'b', expiresAt: clock.now() + 60_000 }, 60_000);
      await store.delete('hash-a');
      expect(await store.load('hash-a')).toBeUndefined();
      expect((await store.load('hash-b'))?.csrfToken).toBe('b');
    });

    it('forgets a session once its time is up', { timeout: 60_000 }, async () => {
      const store = open();
      const ttlMs = 120 * clock.scale;
      await store.save('short', { csrfToken: 'short', expiresAt: clock.now() + ttlMs }, ttlMs);
      expect((await store.load('short'))?.csrfToken).toBe('short');
      await clock.pass(200 * clock.scale);
      expect(await store.load('short')).toBeUndefined();
    });

    it('refuses a session whose expiry has passed even if the store still holds it', async () => {
      const store = open();
      await store.save('stale', { csrfToken: 'stale', expiresAt: clock.now() - 1 }, 60_000);
      expect(await store.load('stale')).toBeUndefined();
    });

    it.skipIf(twin === undefined)('a session saved through one handle is read and ended through another', async () => {
      const first = open();
      const second = twin?.(first) ?? first;
      const session = inAMinute();
      await first.save('shared', session, 60_000);
      expect(await second.load('shared')).toEqual(session);
      await second.delete('shared');
      expect(await first.load('shared')).toBeUndefined();
    });
  });
}
