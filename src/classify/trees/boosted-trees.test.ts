import { describe, expect, it } from 'vitest';
import { BoostedTrees, leafOf } from './boosted-trees.js';
import type { BoostingOptions } from './train-boosted-trees.js';
import { trainBoostedTrees } from './train-boosted-trees.js';

const options: BoostingOptions = { trees: 60, depth: 2, learningRate: 0.2, minLeafWeight: 5, l2: 1, bins: 16, subsample: 1, seed: 3 };
const grid = Array.from({ length: 200 }, (_, index) => [(index % 20) / 20, Math.floor(index / 20) / 10]);

describe('trainBoostedTrees', () => {
  it('learns an interaction a linear model cannot (x0 high only counts when x1 is high)', () => {
    const rows = grid.map((values) => ({ values, target: values[0]! > 0.5 && values[1]! > 0.5 ? 1 : 0 }));
    const model = new BoostedTrees(trainBoostedTrees(rows, ['x0', 'x1'], options));
    expect(model.predict([0.9, 0.8])).toBeGreaterThan(0.8);
    expect(model.predict([0.9, 0.1])).toBeLessThan(0.2);
    expect(model.predict([0.1, 0.8])).toBeLessThan(0.2);
  });

  it('corrects an offset instead of relearning it: a perfect offset leaves nothing to learn', () => {
    const rows = grid.map((values) => ({ values, target: values[0]!, offset: values[0]! }));
    const json = trainBoostedTrees(rows, ['x0', 'x1'], options);
    expect(json.base).toBe(0);
    for (const tree of json.trees) expect(leafOf(tree, [0.3, 0.3])).toBe(0);
  });

  it('never splits off fewer rows than minLeafWeight', () => {
    const rows = grid.map((values, index) => ({ values, target: index === 0 ? 100 : 0 }));
    const json = trainBoostedTrees(rows, ['x0', 'x1'], { ...options, minLeafWeight: 150 });
    // 200 rows cannot make two sides of 150: every tree is a single leaf.
    for (const tree of json.trees) expect(typeof tree).toBe('number');
  });

  it('is deterministic with row sampling on', () => {
    const rows = grid.map((values, index) => ({ values, target: Math.sin(index) }));
    const train = () => JSON.stringify(trainBoostedTrees(rows, ['x0', 'x1'], { ...options, subsample: 0.7 }));
    expect(train()).toBe(train());
  });
});
