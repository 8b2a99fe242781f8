import type { HashedFeatures } from '../features/text-features.js';
import type { MultilabelModelJson } from './multilabel-model.js';
import { sigmoid } from './multilabel-model.js';
import { seededRandom } from './seeded-random.js';

/** A target that is neither positive nor negative: the label is left out of this example's loss. */
export const ignoredTarget = 2;

export interface MultilabelExample {
  features: HashedFeatures;
  /** 1 or 0 per label, in `labels` order, or `ignoredTarget` where the example says nothing about the label. */
  targets: Uint8Array;
  weight?: number;
}

export interface MultilabelTrainingOptions {
  labels: string[];
  featureBits: number;
  epochs?: number;
  learningRate?: number;
  l2?: number;
  seed: number;
  /** Weight of a positive example relative to a negative one, per label; >1 favours recall. */
  positiveWeight?: number[];
  pruneBelow?: number;
  /** Buckets seen in fewer examples are ignored: one-off n-grams add file size, not accuracy. */
  minBucketCount?: number;
  dataHash: string;
}

/**
 * One-vs-rest logistic regression trained with AdaGrad over a seeded shuffle: the same examples always give
 * the same weights file. A few thousand short texts train in about a second.
 */
export function trainMultilabel(examples: readonly MultilabelExample[], options: MultilabelTrainingOptions): MultilabelModelJson {
  const labelCount = options.labels.length;
  const epochs = options.epochs ?? 30;
  const learningRate = options.learningRate ?? 0.3;
  const l2 = options.l2 ?? 1e-5;
  const random = seededRandom(options.seed);
  const size = 1 << options.featureBits;
  const weights = new Float32Array(size * labelCount);
  const squares = new Float32Array(size * labelCount).fill(1e-6);
  const bias = new Float64Array(labelCount);
  const biasSquares = new Float64Array(labelCount).fill(1e-6);
  const order = examples.map((_, index) => index);
  const bucketCounts = new Uint32Array(size);
  for (const example of examples) for (const bucket of example.features.indices) bucketCounts[bucket]! += 1;
  const minimum = options.minBucketCount ?? 1;
  const kept = examples.map((example) => {
    const positions = [...example.features.indices.keys()].filter((position) => bucketCounts[example.features.indices[position]!]! >= minimum);
    return { indices: Int32Array.from(positions, (position) => example.features.indices[position]!), values: Float32Array.from(positions, (position) => example.features.values[position]!) };
  });

  for (let epoch = 0; epoch < epochs; epoch += 1) {
    for (let index = order.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    for (const exampleIndex of order) {
      const example = examples[exampleIndex]!;
      const { indices, values } = kept[exampleIndex]!;
      for (let label = 0; label < labelCount; label += 1) {
        const target = example.targets[label]!;
        if (target === ignoredTarget) continue;
        let logit = bias[label]!;
        for (let position = 0; position < indices.length; position += 1) logit += values[position]! * weights[indices[position]! * labelCount + label]!;
        const scale = (example.weight ?? 1) * (target === 1 ? (options.positiveWeight?.[label] ?? 1) : 1);
        const error = scale * (sigmoid(logit) - target);
        biasSquares[label]! += error * error;
        bias[label]! -= (learningRate * error) / Math.sqrt(biasSquares[label]!);
        for (let position = 0; position < indices.length; position += 1) {
          const slot = indices[position]! * labelCount + label;
          const gradient = error * values[position]! + l2 * weights[slot]!;
          squares[slot]! += gradient * gradient;
          weights[slot]! -= (learningRate * gradient) / Math.sqrt(squares[slot]!);
        }
      }
    }
  }

  const pruneBelow = options.pruneBelow ?? 0.01;
  // Integers in hundredths: the file is a third smaller than decimals and 0.01 is far below what matters.
  const weightScale = 100;
  const rows: Record<string, number[]> = {};
  for (let bucket = 0; bucket < size; bucket += 1) {
    const row = weights.subarray(bucket * labelCount, (bucket + 1) * labelCount);
    if (row.some((weight) => Math.abs(weight) >= pruneBelow)) rows[String(bucket)] = Array.from(row, (weight) => Math.round(weight * weightScale));
  }
  return {
    format: 'hashed-ovr-logistic/1',
    featureBits: options.featureBits,
    labels: [...options.labels],
    weightScale,
    bias: Array.from(bias, (value) => Math.round(value * 1000) / 1000),
    rows,
    temperatures: options.labels.map(() => 1),
    trainedOn: { examples: examples.length, seed: options.seed, dataHash: options.dataHash },
  };
}

/** The per-label temperature that minimises held-out log loss (one parameter, so a grid search is enough). */
export function fitTemperature(heldOut: readonly { logit: number; target: number }[]): number {
  let best = 1;
  let bestLoss = Number.POSITIVE_INFINITY;
  for (let temperature = 0.3; temperature <= 4.0001; temperature += 0.1) {
    let loss = 0;
    for (const item of heldOut) {
      const probability = Math.min(Math.max(sigmoid(item.logit / temperature), 1e-9), 1 - 1e-9);
      loss -= item.target === 1 ? Math.log(probability) : Math.log(1 - probability);
    }
    if (loss < bestLoss) {
      bestLoss = loss;
      best = temperature;
    }
  }
  return Math.round(best * 10) / 10;
}
