import { describe, expect, it } from 'vitest';
import { hashFeatures, textFeatureNames } from '../features/text-features.js';
import type { MultilabelModelJson } from './multilabel-model.js';
import { MultilabelModel } from './multilabel-model.js';
import { decodePackedModel, encodePackedModel } from './packed-model-file.js';

const json: MultilabelModelJson = {
  format: 'hashed-ovr-logistic/1',
  featureBits: 12,
  labels: ['terminal', 'web', 'file'],
  bias: [0.125, -0.5, 0.003],
  rows: { '7': [120, -33, 0], '300': [-1033, 1185, 7], '4095': [1, 2, -3] },
  weightScale: 100,
  temperatures: [1, 0.9, 1.1],
  trainedOn: { examples: 3, seed: 7, dataHash: 'test' },
};

describe('packed model file', () => {
  it('decodes to a model that predicts exactly as the JSON one', () => {
    const bytes = encodePackedModel(json);
    // Offset by one byte in a larger buffer, as a file read into Node's pool may be.
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    const packed = new MultilabelModel(decodePackedModel(unaligned.subarray(1)));
    const plain = new MultilabelModel(json);
    for (const text of ['run the tests', 'search the web', 'read the file', 'hello']) {
      const features = hashFeatures(textFeatureNames(text), 12);
      features.indices.set(features.indices.map((index, position) => (position % 2 === 0 ? [7, 300, 4095][position % 3]! : index)));
      expect(Array.from(packed.predict(features))).toEqual(Array.from(plain.predict(features)));
    }
    expect(packed.labels).toEqual(json.labels);
  });

  it('is byte for byte the same for the same model, and refuses a truncated file or a weight that is no Int16', () => {
    const bytes = encodePackedModel(json);
    expect(Buffer.compare(bytes, encodePackedModel(structuredClone(json)))).toBe(0);
    expect(() => decodePackedModel(bytes.subarray(0, bytes.length - 2))).toThrow(/length/);
    expect(() => encodePackedModel({ ...json, rows: { '1': [40_000, 0, 0] } })).toThrow(/Int16/);
    // Rows are found by binary search: a bucket key that does not sort as its number is refused.
    expect(() => encodePackedModel({ ...json, rows: { '7': [1, 1, 1], '07': [2, 2, 2] } })).toThrow(/ascending/);
  });
});
