import { describe, expect, it } from 'vitest';
import { hashFeatures, textFeatureNames } from '../features/text-features.js';
import { MultilabelModel } from './multilabel-model.js';
import { ignoredTarget, trainMultilabel } from './train-multilabel.js';

const data: [string, number[]][] = [
  ['run the tests', [1, 0]],
  ['run the build please', [1, 0]],
  ['execute the deploy script', [1, 0]],
  ['search the web for news', [0, 1]],
  ['look up the weather online', [0, 1]],
  ['find news about the election', [0, 1]],
  ['write a poem', [0, 0]],
  ['hello there', [0, 0]],
];

function train(seed: number) {
  const examples = data.map(([text, targets]) => ({ features: hashFeatures(textFeatureNames(text), 12), targets: Uint8Array.from(targets) }));
  return trainMultilabel(examples, { labels: ['terminal', 'web'], featureBits: 12, seed, epochs: 40, dataHash: 'test' });
}

describe('trainMultilabel', () => {
  it('is deterministic for a seed and learns the labels', () => {
    expect(JSON.stringify(train(7))).toBe(JSON.stringify(train(7)));
    const model = new MultilabelModel(train(7));
    const [terminal, web] = model.predict(hashFeatures(textFeatureNames('run the tests'), 12));
    expect(terminal).toBeGreaterThan(0.5);
    expect(web).toBeLessThan(0.5);
  });

  it('leaves an ignored target out of the loss: a label no example speaks for stays at even odds', () => {
    const examples = data.map(([text, targets]) => ({ features: hashFeatures(textFeatureNames(text), 12), targets: Uint8Array.from([targets[0]!, ignoredTarget]) }));
    const model = new MultilabelModel(trainMultilabel(examples, { labels: ['terminal', 'web'], featureBits: 12, seed: 7, epochs: 40, dataHash: 'test' }));
    const [terminal, web] = model.predict(hashFeatures(textFeatureNames('search the web for news'), 12));
    expect(terminal).toBeLessThan(0.5);
    expect(web).toBe(0.5);
  });
});
