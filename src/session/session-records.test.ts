import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../store/session-record.js';
import type { SessionStore } from '../store/session-store.js';
import { SessionRecords } from './session-records.js';

/** A store whose first write lands after `firstDelayMs` and later ones after 1 ms, keeping the order they landed in. */
function slowStore(firstDelayMs: number): SessionStore & { landed: string[][]; stored: Map<string, SessionRecord> } {
  const stored = new Map<string, SessionRecord>();
  const landed: string[][] = [];
  let writes = 0;
  return {
    specificationVersion: 'v1',
    stored,
    landed,
    get: async (sessionId) => (stored.has(sessionId) ? structuredClone(stored.get(sessionId)) : undefined),
    set: async (sessionId, record) => {
      const copy = structuredClone(record);
      writes += 1;
      await new Promise((resolve) => setTimeout(resolve, writes === 1 ? firstDelayMs : 1));
      stored.set(sessionId, copy);
      landed.push(copy.toolsets ?? []);
    },
    close: async () => undefined,
  };
}

describe('SessionRecords', () => {
  it('a checkpoint stores the record while the request still holds it', async () => {
    const store = slowStore(1);
    const records = new SessionRecords(store);
    const record = await records.open('s1');
    record.toolsets = ['terminal', 'file'];
    records.checkpoint('s1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another instance reading the store now sees the surface, before this request has released the session.
    expect((await store.get('s1'))?.toolsets).toEqual(['terminal', 'file']);
    expect(records.current('s1')).toBe(record);
    await records.release('s1');
    expect(records.current('s1')).toBeUndefined();
  });

  it('the release write lands after a slower checkpoint, so the newest record is the one kept', async () => {
    const store = slowStore(30);
    const records = new SessionRecords(store);
    const record = await records.open('s2');
    record.toolsets = ['web'];
    records.checkpoint('s2');
    // The checkpoint's write has started (and copied the record) before the surface grows again.
    await new Promise((resolve) => setTimeout(resolve, 0));
    record.toolsets = ['web', 'browser'];
    await records.release('s2');
    expect(store.landed).toEqual([['web'], ['web', 'browser']]);
    expect(store.stored.get('s2')?.toolsets).toEqual(['web', 'browser']);
  });

  it('a store that fails a checkpoint fails nothing', async () => {
    const store: SessionStore = { specificationVersion: 'v1', get: async () => undefined, set: async () => Promise.reject(new Error('down')), close: async () => undefined };
    const records = new SessionRecords(store);
    await records.open('s3');
    records.checkpoint('s3');
    await expect(records.release('s3')).resolves.toBeUndefined();
  });

  it('a checkpoint writes only what changed since the store last had the record', async () => {
    const store = slowStore(1);
    const records = new SessionRecords(store);
    const record = await records.open('s4');
    records.checkpoint('s4');
    record.toolsets = ['web'];
    records.checkpoint('s4');
    records.checkpoint('s4');
    record.affinity = { deployment: 'local/gpt-test', expiresAt: 1 };
    records.checkpoint('s4');
    await records.release('s4');
    // Nothing new at the first and third checkpoints; the release always writes (it restarts the session's TTL).
    expect(store.landed).toEqual([['web'], ['web'], ['web']]);
    expect(store.stored.get('s4')?.affinity?.deployment).toBe('local/gpt-test');
    const reopened = await records.open('s4');
    records.checkpoint('s4');
    reopened.toolsets = ['web', 'file'];
    records.checkpoint('s4');
    await records.release('s4');
    // A record read back from the store is as the store has it: only the change is written before the release.
    expect(store.landed.slice(3)).toEqual([['web', 'file'], ['web', 'file']]);
  });
});
