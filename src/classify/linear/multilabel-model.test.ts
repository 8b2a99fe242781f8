import { describe, expect, it } from 'vitest';
import type { MultilabelModelJson } from './multilabel-model.js';
import { MultilabelModel, sigmoid } from './multilabel-model.js';

function modelWith(featureBits: number, rows: Record<string, number[]>): MultilabelModelJson {
  return { format: 'hashed-ovr-logistic/1', featureBits, labels: ['a', 'b'], bias: [0.5, -0.25], rows, weightScale: 100, temperatures: [1, 2], trainedOn: { examples: 1, seed: 1, dataHash: 'test' } };
}

/** The prediction written out from the JSON rows: what the remembered row lookup must reproduce. */
function expectedPrediction(json: MultilabelModelJson, indices: number[], value: number): number[] {
  return json.labels.map((_, label) => {
    let logit = json.bias[label]!;
    for (const bucket of indices) logit += value * Math.fround((json.rows[String(bucket)]?.[label] ?? 0) / json.weightScale);
    return sigmoid(logit / json.temperatures[label]!);
  });
}

describe('MultilabelModel', () => {
  // Buckets at both ends of the hash space, one between rows and one past the last, so every lookup path is taken.
  const rows = { '0': [120, -40], '5': [-300, 75], '77': [9, 9], '4095': [32767, -32768] };
  const features = [[0, 5, 6, 77, 4095], [6, 77], [0, 4094, 4095], [3]];

  for (const bits of [12, 24]) {
    it(`predicts the weights of each feature's row, the first time and once the row is remembered (${bits} bits)`, () => {
      const json = modelWith(bits, rows);
      const model = new MultilabelModel(json);
      for (const round of [1, 2]) {
        for (const indices of features) {
          const value = 1 / Math.sqrt(indices.length);
          const prediction = model.predict({ indices: Int32Array.from(indices), values: new Float32Array(indices.length).fill(value) });
          expect([...prediction], `round ${round}, buckets ${indices.join(',')}`).toEqual(expectedPrediction(json, indices, Math.fround(value)));
        }
      }
    });
  }
});
