import { describe, expect, it } from 'vitest';
import { addFeature } from '../text/sparse-vector.js';
import { correctionInputNames } from './correction-inputs.js';
import { routingProbability } from './model.js';
import { DifficultyScorer } from './scorer.js';

const model = { classes: ['both', 'strong_only', 'neither', 'weak_only'], bias: [0, 0, 0, 0], weights: { 'w:hard': [0, 2, 0, 0] }, temperature: 1 };
const features = new Map<string, number>();
addFeature(features, 'w:hard', 1);

describe('DifficultyScorer', () => {
  it('without a correction scores exactly like the linear routing probability', () => {
    const score = new DifficultyScorer(model).score('hard', features);
    expect(score.probability).toBe(routingProbability(score.probabilities));
  });

  it('with a correction scores (1 + scale × linear gain + trees) / 2, clamped to [0, 1]', () => {
    const split = { feature: correctionInputNames.indexOf('structure:numbers'), threshold: 2, left: 0, right: 0.3 };
    const trees = { features: correctionInputNames, base: 0.05, trees: [split] };
    const scorer = new DifficultyScorer(model, { scale: 0.5, trees });
    const few = scorer.score('hard 1', features);
    const linearGain = few.probabilities[1]! - few.probabilities[3]!;
    expect(few.probability).toBeCloseTo((1 + 0.5 * linearGain + 0.05) / 2, 10);
    expect(scorer.score('hard 1 2 3', features).probability).toBeCloseTo((1 + 0.5 * linearGain + 0.05 + 0.3) / 2, 10);
    const saturated = new DifficultyScorer(model, { scale: 0.5, trees: { ...trees, base: 5 } });
    expect(saturated.score('hard', features).probability).toBe(1);
  });
});
