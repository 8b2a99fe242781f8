import { indexInSorted } from './sorted-search.js';
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
  /**
   * `seeds`: every member's seed when the weights are a mean of several trainings (scripts/tool-routing/average-models.ts).
   * `writingSystems`: written training lines per writing system (features/writing-system.ts), so a decision can tell a
   * script the model was taught from one it has barely seen.
   */
  trainedOn: { examples: number; seed: number; dataHash: string; seeds?: number[]; writingSystems?: Record<string, number> };
}

/**
 * The same model with its rows as two flat arrays instead of an object of arrays: `buckets[r]` is row r's bucket
 * (ascending), its scaled weights are `weights[r * labels.length ...]` (integers; divide by `weightScale`). The
 * shipped file holds this form (packed-model-file.ts), and the runtime model keeps it as it is.
 */
export type PackedMultilabelModel = Omit<MultilabelModelJson, 'rows'> & { buckets: Int32Array } & (
  | { weights: Int16Array; pages?: undefined }
  | { weights?: undefined; pages: WeightPages }
);

/**
 * Weights held a page at a time (`openPackedModel`): row r's scaled weights are
 * `page(r)[(r % rowsPerPage) * labels.length ...]`, the page read from the model's file when first asked for.
 */
export interface WeightPages {
  rowsPerPage: number;
  page(row: number): Int16Array;
}

/** The packed form of a JSON model: rows in `Object.keys` order, which for canonical integer keys is ascending. */
export function packMultilabelModel(json: MultilabelModelJson): PackedMultilabelModel & { weights: Int16Array } {
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
  const buckets = Int32Array.from(keys, Number);
  // The runtime finds rows by binary search, so the shipped order must be strictly ascending (it is for the
  // canonical integer keys the trainer writes; a key like "07" would break it).
  for (let row = 1; row < buckets.length; row += 1) if (buckets[row]! <= buckets[row - 1]!) throw new Error(`model rows are not in ascending bucket order at row ${row}`);
  return { ...header, buckets, weights };
}

/**
 * Runtime form: the packed rows as they are (one Int16Array, row-major, one scaled weight per label, and the
 * ascending Int32Array of their buckets), so a prediction is a few hundred multiply-adds and building the model
 * runs no loop over its rows: the first tool-routed request loads it, and a table built per row or per Int16
 * value cost that request tens of milliseconds of cold code. A feature's row is found by binary search over the
 * buckets (19 steps for 505,000 rows) the first time its bucket is met, and remembered (`rowByBucket`). Each weight
 * is the Float32 that `scaled / weightScale` rounds to, so predictions are exactly those of the earlier all-Float32
 * form.
 */
export class MultilabelModel {
  readonly labels: readonly string[];
  readonly featureBits: number;
  readonly trainedOn: MultilabelModelJson['trainedOn'];
  private readonly bias: Float64Array;
  private readonly temperatures: Float64Array;
  /** Row r's scaled weights are `weights[r * labels.length ...]` (empty when the model is held in pages). */
  private readonly weights: Int16Array;
  /** The weights page by page, read from the file as rows are first used, when the model was opened that way. */
  private readonly pages: WeightPages | undefined;
  /** Row r's bucket, ascending. */
  private readonly buckets: Int32Array;
  /**
   * Bucket → row + 1 once looked up (-1: the bucket has no row, 0: not yet looked up). The binary search over half a
   * million buckets was most of a prediction's time (its steps miss the cache); remembered, a repeated feature costs
   * one read. Filled as buckets are first met rather than built from every row, so loading the model runs no loop over
   * its rows. 4 bytes per bucket (4 MB for 2^20), resident as its pages are written: buckets are hashes, so a few
   * thousand distinct features touch most pages. Absent for a model of more than 2^22 buckets.
   */
  private readonly rowByBucket: Int32Array | undefined;
  private readonly scale: number;

  constructor(model: MultilabelModelJson | PackedMultilabelModel) {
    if (model.format !== 'hashed-ovr-logistic/1') throw new Error(`unsupported model format ${String(model.format)}`);
    const packed = 'rows' in model ? packMultilabelModel(model) : model;
    this.labels = packed.labels;
    this.featureBits = packed.featureBits;
    this.trainedOn = packed.trainedOn;
    this.bias = Float64Array.from(packed.bias);
    this.temperatures = Float64Array.from(packed.labels.map((_, index) => packed.temperatures[index] ?? 1));
    this.scale = packed.weightScale > 0 ? packed.weightScale : 1;
    if (packed.weights !== undefined && packed.weights.length !== packed.buckets.length * packed.labels.length) throw new Error('model rows and weights differ in length');
    this.weights = packed.weights ?? new Int16Array(0);
    this.pages = packed.pages;
    this.buckets = packed.buckets;
    this.rowByBucket = packed.featureBits <= maximumRememberedBits ? new Int32Array(2 ** packed.featureBits) : undefined;
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
    const scale = this.scale;
    for (let position = 0; position < features.indices.length; position += 1) {
      const row = this.rowOf(features.indices[position]!);
      if (row < 0) continue;
      const value = features.values[position]!;
      let weights = this.weights;
      let start = row * width;
      if (this.pages !== undefined) {
        weights = this.pages.page(row);
        start = (row % this.pages.rowsPerPage) * width;
      }
      for (let label = 0; label < logits.length; label += 1) logits[label]! += value * Math.fround(weights[start + label]! / scale);
    }
    return logits;
  }

  /** The row of a bucket, or -1 when the bucket carries no weight. */
  private rowOf(bucket: number): number {
    const remembered = this.rowByBucket;
    if (remembered === undefined || bucket < 0 || bucket >= remembered.length) return indexInSorted(this.buckets, bucket);
    const known = remembered[bucket]!;
    if (known !== 0) return known < 0 ? -1 : known - 1;
    const row = indexInSorted(this.buckets, bucket);
    remembered[bucket] = row < 0 ? -1 : row + 1;
    return row;
  }
}

/** Models with wider hashes look their rows up by binary search every time (the table would cost 4 × 2^bits bytes). */
const maximumRememberedBits = 22;

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
