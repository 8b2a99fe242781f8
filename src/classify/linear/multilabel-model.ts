import type { HashedFeatures } from '../features/text-features.js';

/**
 * The trainer's form of a one-vs-rest logistic model over hashed features. Rows are kept sparsely as
 * `"bucket": [weight per label]` only for buckets that carry weight. The shipped file is its packed binary form
 * (packed-model-file.ts): parsing 58,000 rows of JSON took a quarter of a second and tens of megabytes of garbage.
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
 * The same model with its rows as two flat arrays instead of an object of arrays: `buckets[r]` is row r's bucket
 * (ascending), its scaled weights are `weights[r * labels.length ...]` (integers; divide by `weightScale`). The
 * shipped file holds this form (packed-model-file.ts), and the runtime model keeps it as it is.
 */
export type PackedMultilabelModel = Omit<MultilabelModelJson, 'rows'> & { buckets: Int32Array; weights: Int16Array };

/** The packed form of a JSON model: rows in `Object.keys` order, which for integer keys is ascending. */
export function packMultilabelModel(json: MultilabelModelJson): PackedMultilabelModel {
  const { rows, ...header } = json;
  const keys = Object.keys(rows);
  const width = json.labels.length;
  const weights = new Int16Array(keys.length * width);
  keys.forEach((bucket, row) => {
    const values = rows[bucket] ?? [];
    for (let label = 0; label < width; label += 1) {
      const weight = values[label] ?? 0;
      if (!Number.isInteger(weight) || weight < -32768 || weight > 32767) throw new Error(`weight ${weight} is no scaled Int16 (train with another weightScale)`);
      weights[row * width + label] = weight;
    }
  });
  return { ...header, buckets: Int32Array.from(keys, Number), weights };
}

/** Int16 weights are offset by this to index `weightOf`. */
const int16Offset = 32768;

/**
 * Runtime form: the packed rows as they are (one Int16Array, row-major, one scaled weight per label), a bucket →
 * row table, and a 65,536-entry table from scaled integer to weight, so a prediction is a few hundred
 * multiply-adds and the model is four allocations (~5 MB for the shipped one), not one array per bucket. The
 * table holds each weight as the Float32 that `scaled / weightScale` rounds to, so predictions are exactly those
 * of the earlier all-Float32 form.
 */
export class MultilabelModel {
  readonly labels: readonly string[];
  readonly featureBits: number;
  private readonly bias: Float64Array;
  private readonly temperatures: Float64Array;
  /** Row r's scaled weights are `weights[r * labels.length ...]`. */
  private readonly weights: Int16Array;
  /** Scaled weight + 32768 → weight. */
  private readonly weightOf: Float32Array;
  /** Bucket → its row + 1; 0 for a bucket that carries no weight. */
  private readonly rowOfBucket: Int32Array;

  constructor(model: MultilabelModelJson | PackedMultilabelModel) {
    if (model.format !== 'hashed-ovr-logistic/1') throw new Error(`unsupported model format ${String(model.format)}`);
    const packed = 'rows' in model ? packMultilabelModel(model) : model;
    this.labels = packed.labels;
    this.featureBits = packed.featureBits;
    this.bias = Float64Array.from(packed.bias);
    this.temperatures = Float64Array.from(packed.labels.map((_, index) => packed.temperatures[index] ?? 1));
    const scale = packed.weightScale > 0 ? packed.weightScale : 1;
    if (packed.weights.length !== packed.buckets.length * packed.labels.length) throw new Error('model rows and weights differ in length');
    this.weights = packed.weights;
    this.weightOf = new Float32Array(2 * int16Offset);
    for (let scaled = -int16Offset; scaled < int16Offset; scaled += 1) this.weightOf[scaled + int16Offset] = scaled / scale;
    this.rowOfBucket = new Int32Array(2 ** packed.featureBits);
    for (let row = 0; row < packed.buckets.length; row += 1) this.rowOfBucket[packed.buckets[row]!] = row + 1;
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
      for (let label = 0; label < logits.length; label += 1) logits[label]! += value * this.weightOf[this.weights[start + label]! + int16Offset]!;
    }
    return logits;
  }
}

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
