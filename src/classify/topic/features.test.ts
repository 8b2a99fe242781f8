import { describe, expect, it } from 'vitest';
import { topicFeatures } from './features.js';

describe('topicFeatures (turns remembered between readings)', () => {
  it('gives the same features for a turn read again, alone or after others', () => {
    const alone = topicFeatures(['how many grams of flour are in a cup']);
    topicFeatures(['what is a good bread recipe', 'how many grams of flour are in a cup']);
    const again = topicFeatures(['how many grams of flour are in a cup']);
    expect([...again.keys()].some((name) => name.startsWith('ctx:'))).toBe(false);
    expect(again).toEqual(alone);
  });

  it('reads an earlier turn in the context namespace', () => {
    const features = topicFeatures(['what is a good bread recipe', 'and without yeast?']);
    expect(features.has('ctx:w:bread')).toBe(true);
    expect(features.has('w:bread')).toBe(false);
  });
});
