import { describe, expect, it } from 'vitest';
import { heuristicDifficulty } from './heuristic-difficulty.js';

const level = (text: string) => heuristicDifficulty.estimate(text).level;

describe('heuristic difficulty (1 hardest … 5 easiest)', () => {
  it('rates short factual questions easiest', () => {
    expect(level('What year did the Berlin wall fall?')).toBe(5);
    expect(level('hi')).toBe(5);
    expect(level('Translate "good morning" to French')).toBe(5);
  });

  it('rates building, debugging and proofs hard, and code harder still', () => {
    expect(level('Design a rate limiter for a distributed API and analyze the trade-offs')).toBe(2);
    expect(level('Implement a parser and debug why this fails:\n```\nfunction parse(x) { return x; }\n```')).toBe(1);
  });

  it('leaves routine turns in the middle and says why', () => {
    const estimate = heuristicDifficulty.estimate('Please update the README with the new install steps for the project, thanks a lot for that.');
    expect(estimate.level).toBe(4);
    expect(estimate.reason).toBe('no signal: routine turn');
  });

  it('names every signal it used', () => {
    expect(heuristicDifficulty.estimate('Refactor this step by step').reason).toBe('build/design verb, multi-step');
  });
});
