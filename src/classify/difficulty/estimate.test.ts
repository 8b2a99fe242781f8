import { describe, expect, it } from 'vitest';
import { addFeature } from '../text/sparse-vector.js';
import { estimateDifficulty } from './estimate.js';
import { trainDifficultyModel } from './train.js';

describe('estimateDifficulty', () => {
  it('returns a probability, a level on the router scale and the deciding features', () => {
    const estimate = estimateDifficulty('A train travels 120 km in 1.5 hours and then 80 km in 1 hour. What is its average speed for the whole trip?');
    expect(estimate.probability).toBeGreaterThanOrEqual(0);
    expect(estimate.probability).toBeLessThanOrEqual(1);
    expect(estimate.cheapFailure).toBeGreaterThanOrEqual(0);
    expect([1, 2, 3, 4, 5]).toContain(estimate.level);
    expect(estimate.features.length).toBeGreaterThan(0);
  });

  it('orders levels with the probability (1 = hardest)', () => {
    const prompts = [
      'Which of the following best describes the holding in a case about adverse possession where the claimant occupied the land openly for the statutory period but paid no taxes?\nA. x\nB. y\nC. z\nD. w\nAnswer:',
      'What is 2 + 2?',
      'Compose an engaging travel blog post about a recent trip to Hawaii.',
    ].map((prompt) => estimateDifficulty(prompt));
    const sorted = [...prompts].sort((left, right) => right.probability - left.probability);
    for (let index = 1; index < sorted.length; index += 1) expect(sorted[index]!.level).toBeGreaterThanOrEqual(sorted[index - 1]!.level);
  });
});

describe('trainDifficultyModel', () => {
  it('is deterministic', () => {
    const rows = Array.from({ length: 40 }, (_, index) => {
      const features = new Map<string, number>();
      addFeature(features, `w:${index % 7}`, 1);
      addFeature(features, `w:${index % 3}`, 1);
      return { features, quality: { weak: index % 2, strong: index % 5 === 0 ? 0 : 1 } };
    });
    expect(JSON.stringify(trainDifficultyModel(rows))).toBe(JSON.stringify(trainDifficultyModel(rows)));
  });
});

describe('learnedDifficultyEstimator', () => {
  it('rates short chit-chat easiest and otherwise uses the learned level', async () => {
    const { learnedDifficultyEstimator } = await import('./router-estimator.js');
    const estimator = learnedDifficultyEstimator();
    expect(estimator.estimate('thanks!')).toMatchObject({ level: 5 });
    const prompt = 'Which of the following is the correct holding on adverse possession?\nA. x\nB. y\nC. z\nD. w\nAnswer:';
    expect(estimator.estimate(prompt).level).toBe(estimateDifficulty(prompt).level);
    expect(learnedDifficultyEstimator({ chitChatMaxWords: 0 }).estimate('thanks!').level).toBe(estimateDifficulty('thanks!').level);
  });
});

describe('trainDifficultyRouter', () => {
  it('is deterministic and its tree inputs are the correction inputs', async () => {
    const { trainDifficultyRouter } = await import('./train-router.js');
    const { correctionInputNames } = await import('./correction-inputs.js');
    const rows = Array.from({ length: 50 }, (_, index) => {
      const features = new Map<string, number>();
      addFeature(features, `w:${index % 7}`, 1);
      return { prompt: `Sam has ${index} apples and ${index % 5} pears.`, features, quality: { weak: index % 2, strong: index % 5 === 0 ? 0 : 1 } };
    });
    const first = trainDifficultyRouter(rows);
    expect(JSON.stringify(first)).toBe(JSON.stringify(trainDifficultyRouter(rows)));
    expect(first.correction.trees.features).toEqual(correctionInputNames);
  });
});
