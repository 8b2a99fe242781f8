import type { LinearModelJson } from './linear-model.js';
import { softmax } from './linear-model.js';
import { seededRandom, shuffleInPlace } from './random.js';
import type { SparseVector } from './sparse-vector.js';

export interface TrainingExample {
  features: SparseVector;
  /** index into `classes` */
  label: number;
  /** Per-example weight (class balancing, recency); 1 by default. */
  weight?: number;
}

export interface TrainingOptions {
  classes: string[];
  epochs?: number;
  learningRate?: number;
  /** L2 penalty per example step; larger values shrink rare features harder. */
  l2?: number;
  seed?: number;
  /** Features seen in fewer examples are dropped before training (keeps the weights file small). */
  minFeatureCount?: number;
  /** Weights whose absolute value stays below this are not written out. */
  pruneBelow?: number;
}

/**
 * Trains a multinomial logistic regression with AdaGrad and a seeded shuffle, so that the same data always
 * gives the same weights file. Plain SGD on a few thousand sparse examples finishes in well under a second,
 * which is also what lets user-defined routes be built at start-up.
 */
export function trainLinearModel(examples: readonly TrainingExample[], options: TrainingOptions): LinearModelJson {
  const classCount = options.classes.length;
  const epochs = options.epochs ?? 20;
  const learningRate = options.learningRate ?? 0.5;
  const l2 = options.l2 ?? 1e-4;
  const minFeatureCount = options.minFeatureCount ?? 1;
  const random = seededRandom(options.seed ?? 1);

  const featureCounts = new Map<string, number>();
  for (const example of examples) for (const name of example.features.keys()) featureCounts.set(name, (featureCounts.get(name) ?? 0) + 1);
  const featureNames = [...featureCounts.keys()].filter((name) => (featureCounts.get(name) ?? 0) >= minFeatureCount).sort();
  const featureIndex = new Map(featureNames.map((name, index) => [name, index]));

  const rows = examples.map((example) => {
    const indices: number[] = [];
    const values: number[] = [];
    for (const [name, value] of example.features) {
      const index = featureIndex.get(name);
      if (index === undefined || value === 0) continue;
      indices.push(index);
      values.push(value);
    }
    return { indices, values, label: example.label, weight: example.weight ?? 1 };
  });

  const weights = new Float64Array(featureNames.length * classCount);
  const squaredGradients = new Float64Array(featureNames.length * classCount).fill(1e-8);
  const bias = new Float64Array(classCount);
  const biasSquaredGradients = new Float64Array(classCount).fill(1e-8);
  const order = rows.map((_, index) => index);
  const logits = new Float64Array(classCount);
  const probabilities = new Float64Array(classCount);

  for (let epoch = 0; epoch < epochs; epoch += 1) {
    shuffleInPlace(order, random);
    for (const rowIndex of order) {
      const row = rows[rowIndex]!;
      for (let classIndex = 0; classIndex < classCount; classIndex += 1) logits[classIndex] = bias[classIndex]!;
      for (let position = 0; position < row.indices.length; position += 1) {
        const base = row.indices[position]! * classCount;
        const value = row.values[position]!;
        for (let classIndex = 0; classIndex < classCount; classIndex += 1) logits[classIndex]! += value * weights[base + classIndex]!;
      }
      softmaxInto(logits, probabilities);
      for (let classIndex = 0; classIndex < classCount; classIndex += 1) {
        const error = row.weight * ((probabilities[classIndex] ?? 0) - (classIndex === row.label ? 1 : 0));
        biasSquaredGradients[classIndex]! += error * error;
        bias[classIndex]! -= (learningRate * error) / Math.sqrt(biasSquaredGradients[classIndex]!);
        for (let position = 0; position < row.indices.length; position += 1) {
          const slot = row.indices[position]! * classCount + classIndex;
          const gradient = error * row.values[position]! + l2 * weights[slot]!;
          squaredGradients[slot]! += gradient * gradient;
          weights[slot]! -= (learningRate * gradient) / Math.sqrt(squaredGradients[slot]!);
        }
      }
    }
  }

  const pruneBelow = options.pruneBelow ?? 1e-3;
  const weightRecord: Record<string, number[]> = {};
  featureNames.forEach((name, featureIndexValue) => {
    const row = Array.from(weights.subarray(featureIndexValue * classCount, (featureIndexValue + 1) * classCount));
    if (row.some((weight) => Math.abs(weight) >= pruneBelow)) weightRecord[name] = row.map((weight) => Math.round(weight * 1e4) / 1e4);
  });
  return { classes: [...options.classes], bias: Array.from(bias, (value) => Math.round(value * 1e4) / 1e4), weights: weightRecord, temperature: 1 };
}

/** Softmax without allocating: training calls it once per example per epoch. */
function softmaxInto(logits: Float64Array, into: Float64Array): void {
  let maximum = -Infinity;
  for (const logit of logits) if (logit > maximum) maximum = logit;
  let total = 0;
  for (let index = 0; index < logits.length; index += 1) {
    into[index] = Math.exp(logits[index]! - maximum);
    total += into[index]!;
  }
  for (let index = 0; index < into.length; index += 1) into[index]! /= total;
}

/**
 * Finds the softmax temperature that minimises the negative log-likelihood of held-out logits: the standard
 * post-hoc calibration, searched on a grid because it is one parameter.
 */
export function fitTemperature(heldOut: readonly { logits: number[]; label: number }[]): number {
  let best = 1;
  let bestLoss = Number.POSITIVE_INFINITY;
  for (let temperature = 0.25; temperature <= 4.0001; temperature += 0.05) {
    let loss = 0;
    for (const item of heldOut) loss -= Math.log(Math.max(softmax(item.logits, temperature)[item.label] ?? 0, 1e-12));
    if (loss < bestLoss) {
      bestLoss = loss;
      best = temperature;
    }
  }
  return Math.round(best * 100) / 100;
}
