import type { HashedFeatures } from '../features/text-features.js';

/**
 * Serialised form of a one-vs-rest logistic model over hashed features. Rows are stored sparsely as
 * `"bucket": [weight per label]` only for buckets that carry weight, which keeps the file small and the
 * TypeScript import cheap (it is read with `JSON.parse`, never imported as a module).
 */
export interface MultilabelModelJson {
  format: 'hashed-ovr-logistic/1';
  featureBits: number;
  labels: string[];
  bias: number[];
  /** bucket index (decimal string) → one weight per label, as integers: divide by `weightScale`. */
  rows: Record<string, number[]>;
  weightScale: number;
  /** Per-label logit scale fitted on held-out folds (Platt-style temperature); 1 when not fitted. */
  temperatures: number[];
  trainedOn: { examples: number; seed: number; dataHash: string };
}

/** Runtime form: a typed-array row per bucket so a prediction is a few hundred multiply-adds. */
export class MultilabelModel {
  readonly labels: readonly string[];
  readonly featureBits: number;
  private readonly bias: Float64Array;
  private readonly temperatures: Float64Array;
  private readonly rows: Map<number, Float32Array>;

  constructor(json: MultilabelModelJson) {
    if (json.format !== 'hashed-ovr-logistic/1') throw new Error(`unsupported model format ${String(json.format)}`);
    this.labels = json.labels;
    this.featureBits = json.featureBits;
    this.bias = Float64Array.from(json.bias);
    this.temperatures = Float64Array.from(json.labels.map((_, index) => json.temperatures[index] ?? 1));
    this.rows = new Map();
    const scale = json.weightScale > 0 ? json.weightScale : 1;
    for (const [bucket, weights] of Object.entries(json.rows)) this.rows.set(Number(bucket), Float32Array.from(weights, (weight) => weight / scale));
  }

  /** Probability per label, in `labels` order. */
  predict(features: HashedFeatures): Float64Array {
    const logits = this.logits(features);
    for (let label = 0; label < logits.length; label += 1) logits[label] = sigmoid(logits[label]! / this.temperatures[label]!);
    return logits;
  }

  logits(features: HashedFeatures): Float64Array {
    const logits = Float64Array.from(this.bias);
    for (let position = 0; position < features.indices.length; position += 1) {
      const row = this.rows.get(features.indices[position]!);
      if (!row) continue;
      const value = features.values[position]!;
      for (let label = 0; label < logits.length; label += 1) logits[label]! += value * row[label]!;
    }
    return logits;
  }
}

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
