import { describe, expect, it } from 'vitest';
import type { TopicSessionState } from './inertia.js';
import type { TopicSessionStore } from './inertia-store.js';

/** The contract every TopicSessionStore passes (memory, Redis). `open` gives a fresh store. */
export function describeTopicSessionStoreContract(name: string, open: () => TopicSessionStore): void {
  describe(`TopicSessionStore contract: ${name}`, () => {
    const software: TopicSessionState = { topic: 'software_it', turns: 1 };
    const holding: TopicSessionState = { topic: 'software_it', pending: { topic: 'math', turns: 1 }, turns: 2 };

    it('knows nothing of a session it never saw, also after loading it', async () => {
      const store = open();
      expect(store.get('never-seen')).toBeUndefined();
      await store.load('never-seen');
      expect(store.get('never-seen')).toBeUndefined();
    });

    it('answers with the latest state set for each session, pending switch included', async () => {
      const store = open();
      store.set('a', software);
      store.set('b', { topic: 'math', turns: 1 });
      store.set('a', holding);
      expect(store.get('a')).toEqual(holding);
      expect(store.get('b')).toEqual({ topic: 'math', turns: 1 });
    });

    it('keeps what it was told across a load', async () => {
      const store = open();
      store.set('c', holding);
      await store.load('c');
      expect(store.get('c')).toEqual(holding);
    });
  });
}
