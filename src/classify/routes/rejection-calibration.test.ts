import { describe, expect, it } from 'vitest';
import type { TrainingExample } from '../text/train-linear-model.js';
import { heldOutMargins, thresholdForRejection, thresholdFrom, unknownRouteMargins } from './rejection-calibration.js';

describe('thresholdFrom', () => {
  it('accepts the given share of correctly routed held-out examples and ignores misrouted ones', () => {
    const correct = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((margin) => ({ label: 0, best: 0, margin }));
    const misrouted = [{ label: 0, best: 1, margin: 0.01 }];
    // 10 correct margins; accepting 80% keeps the 8 highest: the threshold is the third lowest, 0.3.
    expect(thresholdFrom([...correct, ...misrouted], 0.8)).toBe(0.3);
    expect(thresholdFrom(correct, 1)).toBe(0.1);
  });

  it('never goes below zero and is zero when nothing was routed right', () => {
    expect(thresholdFrom([{ label: 0, best: 0, margin: -0.4 }], 0.9)).toBe(0);
    expect(thresholdFrom([{ label: 0, best: 1, margin: 0.9 }], 0.9)).toBe(0);
  });
});

describe('heldOutMargins', () => {
  const examples: TrainingExample[] = Array.from({ length: 24 }, (_, index) => ({ features: new Map([[`id:${index}`, 1]]), label: index % 3 }));

  it('scores every held-out example with a model that never trained on it', () => {
    const seenBy: Set<string>[] = [];
    const heldOut = heldOutMargins(examples, 2, (subset) => {
      const seen = new Set(subset.flatMap((example) => [...example.features.keys()]));
      seenBy.push(seen);
      return (features) => {
        const name = [...features.keys()][0]!;
        expect(seen.has(name)).toBe(false);
        return { best: 0, margin: 0.5 };
      };
    }, { folds: 2, heldOutPerRoute: 4 });
    // Routes 0 and 1 (label 2 is "no route" here) each hold out 4 examples, dealt into 2 folds.
    expect(heldOut).toHaveLength(8);
    expect(heldOut.every((item) => item.label < 2)).toBe(true);
    expect(seenBy).toHaveLength(2);
    // Each fold model trains on everything but its own 4 held-out examples.
    expect(seenBy.map((seen) => seen.size)).toEqual([20, 20]);
  });
});

describe('unknownRouteMargins', () => {
  // Routes 0–3 with 6 examples each; label 4 is "no route" (negatives).
  const examples: TrainingExample[] = Array.from({ length: 30 }, (_, index) => ({ features: new Map([[`id:${index}`, 1]]), label: index % 5 }));

  it('scores each route with a model trained without that route, negatives always kept', () => {
    const scoredLabels: number[] = [];
    const margins = unknownRouteMargins(examples, 4, (subset) => {
      const trainedLabels = new Set(subset.map((example) => example.label));
      expect(trainedLabels.has(4)).toBe(true);
      return (features) => {
        const label = Number([...features.keys()][0]!.slice(3)) % 5;
        expect(trainedLabels.has(label)).toBe(false);
        scoredLabels.push(label);
        return { best: 0, margin: label / 10 };
      };
    }, { folds: 2, perRoute: 3 });
    expect(margins).toHaveLength(12);
    expect([...new Set(scoredLabels)].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('thresholdForRejection', () => {
  it('rejects the target share of unknown margins, midway to the next one, never below zero', () => {
    // Rejecting 60% of ten margins rejects the six lowest (up to 0.6): the threshold sits between 0.6 and 0.7.
    expect(thresholdForRejection([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], 0.6)).toBe(0.65);
    expect(thresholdForRejection([-0.5, -0.4, -0.3, 0.9], 0.5)).toBe(0);
    expect(thresholdForRejection([], 0.5)).toBe(0);
  });
});
