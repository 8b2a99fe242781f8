import { describe, expect, it } from 'vitest';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { averageModels } from '../../scripts/tool-routing/average-models.js';
import { trainToolsetModel } from '../../scripts/tool-routing/training.js';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';

// A soup of seeds (train.ts --seeds, leave-one-writer-out.ts --seeds) is an ensemble only if the mean model's logits
// are the mean of the members' logits (up to the hundredths the weights are stored in).
describe('averageModels', () => {
  const files = ['train-styles.txt'];
  const members = [3, 5, 9].map((seed) => trainToolsetModel({ files, seed }).model);
  const averaged = averageModels(members);

  it("gives the mean of the members' logits", () => {
    const texts = ['search the web for flights to Lisbon and remind me on Friday', 'write a haiku about autumn', '帮我生成一张猫的图片'];
    for (const text of texts) {
      const features = toolsetFeatures(text, false, averaged.featureBits);
      const memberLogits = members.map((member) => new MultilabelModel(member).logits(features));
      const averagedLogits = new MultilabelModel(averaged).logits(features);
      const means = averagedLogits.map((_, label) => memberLogits.reduce((sum, logits) => sum + logits[label]!, 0) / members.length);
      // Each averaged weight is rounded to a hundredth (±0.005) and every feature's value is 1/sqrt(count).
      const tolerance = 0.006 * Math.sqrt(features.indices.length) + 1e-3;
      averagedLogits.forEach((logit, label) => expect(Math.abs(logit - means[label]!)).toBeLessThan(tolerance));
      // The members disagree by more than that, or the test would pass for any one of them.
      expect(memberLogits[0]!.some((logit, label) => Math.abs(logit - means[label]!) > 2 * tolerance)).toBe(true);
    }
  });

  it('keeps the rows in ascending bucket order and refuses models of different shape', () => {
    const buckets = Object.keys(averaged.rows).map(Number);
    expect(buckets.every((bucket, index) => index === 0 || bucket > buckets[index - 1]!)).toBe(true);
    expect(averaged.trainedOn.seeds).toEqual([3, 5, 9]);
    expect(() => averageModels([members[0]!, { ...members[1]!, featureBits: members[1]!.featureBits - 1 }])).toThrow(/differ/);
    expect(() => averageModels([])).toThrow();
  });
});
