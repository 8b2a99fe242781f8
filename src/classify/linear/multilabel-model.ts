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

/**
 * Runtime form: every row in one Float32Array (row-major, one weight per label) and a bucket → row table, so a
 * prediction is a few hundred multiply-adds and the model is two allocations, not one typed array per bucket
 * (twenty thousand small arrays cost several megabytes of object headers and separate backing stores).
 */
export class MultilabelModel {
  readonly labels: readonly string[];
  readonly featureBits: number;
  private readonly bias: Float64Array;
  private readonly temperatures: Float64Array;
  /** Row r's weights are `weights[r * labels.length ...]`. */
  private readonly weights: Float32Array;
  /** Bucket → its row + 1; 0 for a bucket that carries no weight. */
  private readonly rowOfBucket: Int32Array;

  constructor(json: MultilabelModelJson) {
    if (json.format !== 'hashed-ovr-logistic/1') throw new Error(`unsupported model format ${String(json.format)}`);
    this.labels = json.labels;
    this.featureBits = json.featureBits;
    this.bias = Float64Array.from(json.bias);
    this.temperatures = Float64Array.from(json.labels.map((_, index) => json.temperatures[index] ?? 1));
    const scale = json.weightScale > 0 ? json.weightScale : 1;
    const width = json.labels.length;
    const buckets = Object.keys(json.rows);
    this.weights = new Float32Array(buckets.length * width);
    this.rowOfBucket = new Int32Array(2 ** json.featureBits);
    buckets.forEach((bucket, row) => {
      const weights = json.rows[bucket] ?? [];
      for (let label = 0; label < width; label += 1) this.weights[row * width + label] = (weights[label] ?? 0) / scale;
      this.rowOfBucket[Number(bucket)] = row + 1;
    });
  }

  /** Probability per label, in `labels` order. */
  predict(features: HashedFeatures): Float64Array {
    const logits = this.logits(features);
    for (let label = 0; label < logits.length; label += 1) logits[label] = sigmoid(logits[label]! / this.temperatures[label]!);
    return logits;
  }

  logits(features: HashedFeatures): Float64Array {
    const logits = Float64Array.from(this.bias);
    const width = this.labels.length;
    for (let position = 0; position < features.indices.length; position += 1) {
      const row = this.rowOfBucket[features.indices[position]!] ?? 0;
      if (row === 0) continue;
      const value = features.values[position]!;
      const start = (row - 1) * width;
      for (let label = 0; label < logits.length; label += 1) logits[label]! += value * this.weights[start + label]!;
    }
    return logits;
  }
}

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
