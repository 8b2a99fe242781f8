import { describe, expect, it } from 'vitest';
import { MemoryTopicSessions } from './inertia-store.js';
import { describeTopicSessionStoreContract } from './inertia-store.contract.js';
import { RecordTopicSessions } from './record-topic-sessions.js';
import type { SessionRecord } from '../../store/session-record.js';

describeTopicSessionStoreContract('memory', () => new MemoryTopicSessions());

// Inside a request every session asked about has its record open; this stands in for that.
describeTopicSessionStoreContract('session record', () => {
  const records = new Map<string, SessionRecord>();
  return new RecordTopicSessions({
    current: (sessionId) => records.get(sessionId) ?? records.set(sessionId, { updatedAt: 0 }).get(sessionId),
  });
});

describe('MemoryTopicSessions', () => {
  it('forgets the least recently set session first when full', () => {
    const store = new MemoryTopicSessions(2);
    store.set('a', { topic: 'math', turns: 1 });
    store.set('b', { topic: 'math', turns: 1 });
    store.set('a', { topic: 'math', turns: 2 });
    store.set('c', { topic: 'math', turns: 1 });
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toEqual({ topic: 'math', turns: 2 });
  });
});
