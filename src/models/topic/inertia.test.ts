import { describe, expect, it } from 'vitest';
import type { TopicSessionState } from './inertia.js';
import { nextTopicState } from './inertia.js';

const options = { inertia: 2, switchConfidence: 0.85 };

describe('nextTopicState', () => {
  it('takes the first confident specialist at once', () => {
    const result = nextTopicState(undefined, { topic: 'software_it', confidence: 0.6 }, options);
    expect(result).toMatchObject({ topic: 'software_it', reason: 'first specialist turn', state: { topic: 'software_it', turns: 1 } });
  });

  it('never keeps a stale specialist on a low-confidence turn', () => {
    const state: TopicSessionState = { topic: 'software_it', turns: 3 };
    expect(nextTopicState(state, { topic: 'none', confidence: 0.9 }, options)).toMatchObject({ topic: 'none', reason: 'no confident specialist' });
  });

  it('makes a new specialist build confidence over turns before switching', () => {
    let state: TopicSessionState | undefined = { topic: 'software_it', turns: 1 };
    const first = nextTopicState(state, { topic: 'math', confidence: 0.6 }, options);
    expect(first).toMatchObject({ topic: 'software_it', reason: 'holding current specialist', state: { pending: { topic: 'math', turns: 1 } } });
    state = first.state;
    const second = nextTopicState(state, { topic: 'math', confidence: 0.6 }, options);
    expect(second).toMatchObject({ topic: 'math', reason: 'switch after building confidence' });
    expect(second.state.pending).toBeUndefined();
  });

  it('resets the streak when the pending topic changes', () => {
    const state: TopicSessionState = { topic: 'software_it', pending: { topic: 'math', turns: 1 }, turns: 2 };
    const result = nextTopicState(state, { topic: 'science', confidence: 0.6 }, options);
    expect(result).toMatchObject({ topic: 'software_it', state: { pending: { topic: 'science', turns: 1 } } });
  });

  it('switches at once on a very confident turn, and with inertia 1', () => {
    const state: TopicSessionState = { topic: 'software_it', turns: 1 };
    expect(nextTopicState(state, { topic: 'math', confidence: 0.9 }, options)).toMatchObject({ topic: 'math', reason: 'confident switch' });
    expect(nextTopicState(state, { topic: 'math', confidence: 0.5 }, { inertia: 1, switchConfidence: 0.99 })).toMatchObject({ topic: 'math' });
  });

  it('keeps the current specialist on a short follow-up, however confident, but lets it end on none', () => {
    const state: TopicSessionState = { topic: 'medicine_healthcare', turns: 1 };
    expect(nextTopicState(state, { topic: 'science', confidence: 0.95, shortFollowUp: true }, options)).toMatchObject({ topic: 'medicine_healthcare', reason: 'short follow-up keeps topic', state: { topic: 'medicine_healthcare', turns: 2 } });
    expect(nextTopicState(state, { topic: 'none', confidence: 1, shortFollowUp: true }, options)).toMatchObject({ topic: 'none' });
    expect(nextTopicState(undefined, { topic: 'science', confidence: 0.5, shortFollowUp: true }, options)).toMatchObject({ topic: 'science' });
  });

  it('is pure: the previous state object is not changed', () => {
    const state: TopicSessionState = { topic: 'software_it', turns: 1 };
    const frozen = structuredClone(state);
    nextTopicState(state, { topic: 'math', confidence: 0.5 }, options);
    expect(state).toEqual(frozen);
  });
});
