import type { FeatureContribution, LinearModelJson, LinearPrediction } from './linear-model.js';
import { round, softmax } from './linear-model.js';
import { HashedNameIndex } from './hashed-name-index.js';
import type { SparseVector } from './sparse-vector.js';

/** Features found in the table: names, values and row indices, in the order of the sparse vector. */
export interface MatchedFeatures {
  names: string[];
  values: number[];
  rows: number[];
}

/**
 * Several models' weights in one table, as the shipped file holds them (`src/classify/topic/packed-weights.ts`): the
 * feature names in row order, one signed byte per weight (row-major, every model's classes side by side) and, per
 * row and model, the step a byte counts (the row's largest absolute weight in that model / 127).
 */
export interface PackedStackedModels {
  models: { classes: string[]; bias: number[]; temperature: number }[];
  names: string[];
  /** rowCount × models.length */
  scales: Float32Array;
  /** rowCount × (sum of the models' class counts) */
  table: Int8Array;
}

/** Bytes in one row of the table: every model's classes side by side. */
export function rowWidth(models: readonly { classes: readonly string[] }[]): number {
  return models.reduce((sum, model) => sum + model.classes.length, 0);
}

/**
 * Rounds every model's weights to one of 255 steps of its row's largest absolute weight: what
 * `StackedLinearModels` computes with. The 32-bit weights' decisions were kept on writer 1's 480 cases left out
 * (scripts/classifiers/topic-prune-lowo.ts, variant `int8`) and on the dev, holdout, fresh and fresh-final sets.
 */
export function packStackedModels(models: readonly LinearModelJson[]): PackedStackedModels {
  const width = rowWidth(models);
  const rows = new Map<string, number>();
  for (const model of models) for (const name of Object.keys(model.weights)) if (!rows.has(name)) rows.set(name, rows.size);
  const scales = new Float32Array(rows.size * models.length);
  const table = new Int8Array(rows.size * width);
  let offset = 0;
  models.forEach((model, modelIndex) => {
    for (const [name, weights] of Object.entries(model.weights)) {
      const row = rows.get(name)!;
      let largest = 0;
      for (const weight of weights) largest = Math.max(largest, Math.abs(weight));
      if (largest === 0) continue;
      const step = Math.fround(largest / 127);
      scales[row * models.length + modelIndex] = step;
      weights.forEach((weight, classIndex) => {
        table[row * width + offset + classIndex] = Math.max(-127, Math.min(127, Math.round(weight / step)));
      });
    }
    offset += model.classes.length;
  });
  return { models: models.map((model) => ({ classes: [...model.classes], bias: [...model.bias], temperature: model.temperature })), names: [...rows.keys()], scales, table };
}

/**
 * Several linear models over the same features (the topic classifier's subject and intent heads), scored with one
 * table lookup per feature instead of one per model. A decision is bound by memory, not arithmetic: each lookup in
 * a map of ~90,000 names and then in that name's weight array is a cache miss or two, so two heads over separate
 * maps cost twice the misses. Here a name maps to a row in one contiguous Int8Array holding every model's weights
 * side by side, one byte a weight with a step per row and model (`packStackedModels`; a quarter of the 32-bit
 * table it replaced, the sums are 64-bit). Predictions and explanations equal LinearModel's on the rounded weights
 * (a feature a model lacks has zero weights in its part of the row).
 */
export class StackedLinearModels {
  readonly models: readonly { classes: readonly string[]; temperature: number }[];
  /** name → row index (the names themselves are not kept) */
  private readonly rows: HashedNameIndex;
  private readonly table: Int8Array;
  private readonly scales: Float32Array;
  private readonly width: number;
  private readonly offsets: number[];
  private readonly biases: number[][];

  constructor(source: readonly LinearModelJson[] | PackedStackedModels) {
    const packed = 'table' in source ? source : packStackedModels(source);
    this.models = packed.models.map((model) => ({ classes: model.classes, temperature: model.temperature > 0 ? model.temperature : 1 }));
    this.offsets = [];
    let width = 0;
    for (const model of packed.models) {
      this.offsets.push(width);
      width += model.classes.length;
    }
    this.width = width;
    if (packed.table.length !== packed.names.length * width || packed.scales.length !== packed.names.length * packed.models.length) throw new Error('stacked models: table size does not match the names');
    this.biases = packed.models.map((model) => [...model.bias]);
    this.rows = new HashedNameIndex(packed.names);
    this.table = packed.table;
    this.scales = packed.scales;
  }

  /** The features the table knows, with their rows: read once, then scored by `predict` and `explain` alike. */
  match(features: SparseVector): MatchedFeatures {
    const matched: MatchedFeatures = { names: [], values: [], rows: [] };
    for (const [name, value] of features) {
      const row = this.rows.get(name);
      if (row === undefined) continue;
      matched.names.push(name);
      matched.values.push(value);
      matched.rows.push(row);
    }
    return matched;
  }

  /** One prediction per model, in the order the models were given. */
  predict(features: SparseVector | MatchedFeatures): LinearPrediction[] {
    const { values, rows } = features instanceof Map ? this.match(features) : features;
    const sums = new Float64Array(this.width);
    const modelCount = this.models.length;
    for (let position = 0; position < rows.length; position += 1) {
      const row = rows[position]!;
      const value = values[position]!;
      for (let modelIndex = 0; modelIndex < modelCount; modelIndex += 1) {
        const step = value * this.scales[row * modelCount + modelIndex]!;
        if (step === 0) continue;
        const start = this.offsets[modelIndex]!;
        const end = start + this.models[modelIndex]!.classes.length;
        const base = row * this.width;
        for (let index = start; index < end; index += 1) sums[index]! += step * this.table[base + index]!;
      }
    }
    return this.models.map((model, modelIndex) => {
      const offset = this.offsets[modelIndex]!;
      const logits = this.biases[modelIndex]!.map((bias, classIndex) => bias + sums[offset + classIndex]!);
      return { logits, probabilities: softmax(logits, model.temperature) };
    });
  }

  /** The features that pushed `classIndex` of model `modelIndex` up the most against its other classes. */
  explain(features: SparseVector | MatchedFeatures, modelIndex: number, classIndex: number, limit = 5): FeatureContribution[] {
    const { names, values, rows } = features instanceof Map ? this.match(features) : features;
    const offset = this.offsets[modelIndex]!;
    const classCount = this.models[modelIndex]!.classes.length;
    const contributions: FeatureContribution[] = [];
    for (let position = 0; position < rows.length; position += 1) {
      const row = rows[position]! * this.width + offset;
      const step = this.scales[rows[position]! * this.models.length + modelIndex]!;
      let sum = 0;
      for (let index = 0; index < classCount; index += 1) sum += this.table[row + index]!;
      const weight = values[position]! * step * (this.table[row + classIndex]! - sum / classCount);
      if (weight > 0) contributions.push({ feature: names[position]!, weight: round(weight, 4) });
    }
    return contributions.sort((left, right) => right.weight - left.weight).slice(0, limit);
  }
}
