import { describe, expect, it } from 'vitest';
import { encodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { trainToolsetModel } from '../../scripts/tool-routing/training.js';

// `train.ts --check` compares a fresh training with the shipped weights byte for byte, which only works while
// training is deterministic. A full training takes minutes, so this trains on one small file (the same code path)
// twice, and the bytes must match: an unseeded random draw or any order that is not fixed fails it.
describe('toolset model training', () => {
  it('gives the same bytes for the same files and seed', () => {
    const files = ['train-styles.txt'];
    const first = encodePackedModel(trainToolsetModel({ files, seed: 7 }).model);
    const second = encodePackedModel(trainToolsetModel({ files, seed: 7 }).model);
    expect(Buffer.compare(first, second)).toBe(0);
  });
});
