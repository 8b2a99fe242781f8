import { describe, expect, it } from 'vitest';
import type { LinearModelJson } from './linear-model.js';
import { LinearModel } from './linear-model.js';
import { packStackedModels, StackedLinearModels } from './stacked-linear-models.js';

const subject: LinearModelJson = {
  classes: ['a', 'b', 'c'],
  bias: [0.1, -0.2, 0.05],
  weights: { 'w:x': [1.25, -0.5, 0.0001], 'w:y': [-0.75, 0.3, 0.2], 'w:only-subject': [0, 2, -1] },
  temperature: 0.8,
};
const intent: LinearModelJson = {
  classes: ['p', 'q'],
  bias: [0.3, -0.3],
  weights: { 'w:x': [0.5, -0.5], 'w:only-intent': [-1.5, 1.5] },
  temperature: 1.2,
};

/** A model's weights as the stacked table holds them: each a whole number of its row's step (largest / 127). */
function rounded(model: LinearModelJson): LinearModelJson {
  return {
    ...model,
    weights: Object.fromEntries(
      Object.entries(model.weights).map(([name, row]) => {
        const step = Math.fround(Math.max(...row.map(Math.abs)) / 127);
        return [name, row.map((weight) => step * Math.round(weight / step))];
      }),
    ),
  };
}

describe('StackedLinearModels', () => {
  const stacked = new StackedLinearModels([subject, intent]);
  const features = new Map([
    ['w:x', 0.6],
    ['w:y', 0.3],
    ['w:only-subject', 0.2],
    ['w:only-intent', 0.4],
    ['w:unknown', 1],
  ]);

  it('predicts as each model would on its own, with its weights rounded to 255 steps of a row', () => {
    const [subjectPrediction, intentPrediction] = stacked.predict(features);
    for (const [prediction, json] of [
      [subjectPrediction!, subject],
      [intentPrediction!, intent],
    ] as const) {
      const alone = new LinearModel(rounded(json)).predict(features);
      // The rounding moves a logit by at most half a step per feature.
      new LinearModel(json).predict(features).logits.forEach((logit, index) => expect(Math.abs(prediction.logits[index]! - logit)).toBeLessThan(0.01));
      alone.logits.forEach((logit, index) => expect(prediction.logits[index]).toBeCloseTo(logit, 6));
      alone.probabilities.forEach((probability, index) => expect(prediction.probabilities[index]).toBeCloseTo(probability, 6));
    }
  });

  it('explains as each model would on its own, ignoring the features only the other model has', () => {
    expect(stacked.explain(features, 0, 1, 5)).toEqual(new LinearModel(rounded(subject)).explain(features, 1, 5));
    expect(stacked.explain(features, 1, 1, 5)).toEqual(new LinearModel(rounded(intent)).explain(features, 1, 5));
  });

  it('builds the same table from its packed form', () => {
    const packed = packStackedModels([subject, intent]);
    expect(packed.names).toEqual(['w:x', 'w:y', 'w:only-subject', 'w:only-intent']);
    expect(Array.from(packed.table.subarray(0, 5))).toEqual([127, -51, 0, 127, -127]);
    expect(new StackedLinearModels(packed).predict(features)).toEqual(stacked.predict(features));
  });
});
