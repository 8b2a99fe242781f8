import { afterEach, describe, expect, it } from 'vitest';
import { contractClock, type StoreExpiry } from './contract-clock.js';
import type { SessionRecord } from './session-record.js';
import type { SessionStore } from './session-store.js';

/**
 * A fresh, empty store forgetting sessions idle for `ttlMs`, reading the time from `now`; the suite closes it
 * after each case.
 */
export type SessionStoreFactory = (options: { ttlMs: number; now: () => number }) => Promise<SessionStore> | SessionStore;

/**
 * The behaviour every `SessionStore` must have (memory, Redis). An implementation's test file is one call:
 * `describeSessionStoreContract('redis', ({ ttlMs, now }) => new RedisSessionStore({ client, keyPrefix, ttlMs, now }), 'server')`.
 * `expiry` says who forgets idle sessions: the store by `now` (the suite moves that clock by hand), or a server
 * by its own time (the TTL case then runs on real time, twenty times longer; see `contract-clock.ts`).
 */
export function describeSessionStoreContract(name: string, factory: SessionStoreFactory, expiry: StoreExpiry = 'clock'): void {
  describe(`SessionStore contract: ${name}`, () => {
    const clock = contractClock(expiry);
    const opened: SessionStore[] = [];
    const open = async (ttlMs = 60_000): Promise<SessionStore> => {
      const store = await factory({ ttlMs, now: clock.now });
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('knows nothing of a session it never saw', async () => {
      const store = await open();
      expect(await store.get('never-seen')).toBeUndefined();
    });

    it('returns a surface exactly as saved: toolsets in their order, flags and counters', async () => {
      const store = await open();
      const before = clock.now();
      const state: SessionRecord = { toolsets: ['web', 'files', 'browser', 'a.b'], narrowed: true, recoveries: 2, updatedAt: 0 };
      await store.set('session-1', state);
      const read = await store.get('session-1');
      const { updatedAt, ...rest } = read ?? { updatedAt: -1 };
      expect(rest).toEqual({ toolsets: ['web', 'files', 'browser', 'a.b'], narrowed: true, recoveries: 2 });
      expect(JSON.stringify(read?.toolsets)).toBe(JSON.stringify(state.toolsets));
      // The store stamps the write time, whatever the caller put there.
      expect(updatedAt).toBeGreaterThanOrEqual(before);
      expect(updatedAt).toBeLessThanOrEqual(clock.now());
    });

    it('returns every part of the record as saved: affinity, topic inertia, nudge and prompt-cache state', async () => {
      const store = await open();
      const parts = {
        toolsets: ['web'],
        affinity: { deployment: 'claude/claude-test', expiresAt: 1_700_000_000_000 },
        topic: { topic: 'software_it', pending: { topic: 'math', turns: 1 }, turns: 3 },
        nudge: { promptTokens: 72_000, provider: 'local', model: 'cheap', sent: ['first' as const], seenAt: 5 },
        promptCache: { lastSeenAt: 7, ttl: '1h' as const, key: { providerId: 'claude', keyId: 'key-2', warmUntil: 9 } },
      };
      await store.set('whole', { ...parts, updatedAt: 0 });
      const { updatedAt: _updatedAt, ...read } = (await store.get('whole')) ?? { updatedAt: -1 };
      expect(read).toEqual(parts);
    });

    it('keeps sessions apart and lets a later write replace an earlier one', async () => {
      const store = await open();
      await store.set('a', { toolsets: ['web'], narrowed: true, updatedAt: 0 });
      await store.set('b', { toolsets: ['files'], narrowed: false, updatedAt: 0 });
      await store.set('a', { toolsets: ['web', 'terminal'], narrowed: true, updatedAt: 0 });
      expect((await store.get('a'))?.toolsets).toEqual(['web', 'terminal']);
      expect((await store.get('b'))?.toolsets).toEqual(['files']);
      expect((await store.get('b'))?.narrowed).toBe(false);
    });

    it('hands out copies: changing what get returned does not change the stored session', async () => {
      const store = await open();
      await store.set('copy', { toolsets: ['web'], updatedAt: 0 });
      const first = await store.get('copy');
      first?.toolsets?.push('mutated');
      expect((await store.get('copy'))?.toolsets).toEqual(['web']);
    });

    it('forgets a session left idle longer than the TTL, and a write restarts the clock', { timeout: 60_000 }, async () => {
      const store = await open(150 * clock.scale);
      await store.set('idle', { toolsets: ['web'], updatedAt: 0 });
      await store.set('busy', { toolsets: ['files'], updatedAt: 0 });
      await clock.pass(100 * clock.scale);
      await store.set('busy', { toolsets: ['files', 'web'], updatedAt: 0 });
      await clock.pass(100 * clock.scale);
      expect(await store.get('idle')).toBeUndefined();
      expect((await store.get('busy'))?.toolsets).toEqual(['files', 'web']);
    });

    it('accepts ids with any characters a client may send', async () => {
      const store = await open();
      const id = 'fp_abc:def/ghi {x} ✓';
      await store.set(id, { toolsets: ['web'], updatedAt: 0 });
      expect((await store.get(id))?.toolsets).toEqual(['web']);
    });
  });
}
