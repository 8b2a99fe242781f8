import { describe, expect, it } from 'vitest';
import { warmToolsetClassifier } from './warm-up.js';

describe('classifier warm-up', () => {
  it('runs the whole classifier (model, rules, description matcher) on its own inputs, without the shipped tables', () => {
    expect(warmToolsetClassifier()).toBe(true);
  });
});
