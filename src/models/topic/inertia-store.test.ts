import { describe, expect, it } from 'vitest';
import { MemoryTopicSessions } from './inertia-store.js';
import { describeTopicSessionStoreContract } from './inertia-store.contract.js';

describeTopicSessionStoreContract('memory', () => new MemoryTopicSessions());

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
