import { describe, expect, it } from 'vitest';
import { encodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { trainToolsetModel } from '../../scripts/tool-routing/training.js';

// `train.ts --check` compares a fresh training with the shipped weights byte for byte, which only works while
// training is deterministic. A full training takes minutes, so this trains on one small file (the same code path)
// twice, and the bytes must match: an unseeded random draw or any order that is not fixed fails it.
describe('toolset model training', () => {
  it('gives the same bytes for the same files and seed', () => {
    const files = ['train-styles.txt'];
    const trained = trainToolsetModel({ files, seed: 7 });
    const first = encodePackedModel(trained.model);
    const second = encodePackedModel(trainToolsetModel({ files, seed: 7 }).model);
    expect(Buffer.compare(first, second)).toBe(0);
    // Every written line is counted under its writing system, which the decision reads (unfamiliar_script_lines).
    const systems = trained.model.trainedOn.writingSystems ?? {};
    expect(Object.values(systems).reduce((sum, count) => sum + count, 0)).toBe(trained.written);
    expect(systems.Latin).toBeGreaterThan(0);
  });
});
