import { describe, expect, it } from 'vitest';
import type { DifficultyCase } from './difficulty-cases.js';
import { crossValidatedScores } from './difficulty-run.js';

const topics = ['interest on a loan', 'speed of a train', 'area of a garden', 'price of apples', 'ages of siblings'];
const cases: DifficultyCase[] = Array.from({ length: 60 }, (_, index) => ({
  benchmark: 'gsm8k',
  prompt: `A question about the ${topics[index % 5]} with ${index % 7} steps and ${index % 3} numbers like ${index}.`,
  weak_correct: index % 4 !== 0,
  strong_correct: index % 6 !== 1,
}));

describe('crossValidatedScores', () => {
  it('scores each row with models that never saw its label', () => {
    const folds = 5;
    const scores = crossValidatedScores(cases, folds);
    // Flip every label of fold 0: the scores of fold 0 must not move, the other folds' (trained on them) must.
    const flipped = cases.map((row, index) => (index % folds === 0 ? { ...row, weak_correct: !row.weak_correct, strong_correct: !row.strong_correct } : row));
    const flippedScores = crossValidatedScores(flipped, folds);
    cases.forEach((_, index) => {
      if (index % folds === 0) expect(flippedScores[index]).toBe(scores[index]);
    });
    expect(cases.some((_, index) => index % folds !== 0 && flippedScores[index] !== scores[index])).toBe(true);
  });
});
