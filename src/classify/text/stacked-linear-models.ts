import type { FeatureContribution, LinearModelJson, LinearPrediction } from './linear-model.js';
import { round, softmax } from './linear-model.js';
import type { SparseVector } from './sparse-vector.js';

/** Features found in the table: names, values and row offsets, in the order of the sparse vector. */
export interface MatchedFeatures {
  names: string[];
  values: number[];
  rows: number[];
}

/**
 * Several linear models over the same features (the topic classifier's subject and intent heads), scored with one
 * table lookup per feature instead of one per model. A decision is bound by memory, not arithmetic: each lookup in
 * a map of ~90,000 names and then in that name's weight array is a cache miss or two, so two heads over separate
 * maps cost twice the misses. Here a name maps to a row offset in one contiguous Float32Array holding every
 * model's weights side by side (32-bit floats keep the 4 decimals the weights are written with; the sums are
 * 64-bit). Predictions and explanations equal LinearModel's (a feature a model lacks has zero weights in its part
 * of the row).
 */
export class StackedLinearModels {
  readonly models: readonly { classes: readonly string[]; temperature: number }[];
  private readonly rows: Map<string, number>;
  private readonly table: Float32Array;
  private readonly width: number;
  private readonly offsets: number[];
  private readonly biases: number[][];

  constructor(models: readonly LinearModelJson[]) {
    this.models = models.map((model) => ({ classes: model.classes, temperature: model.temperature > 0 ? model.temperature : 1 }));
    this.offsets = [];
    let width = 0;
    for (const model of models) {
      this.offsets.push(width);
      width += model.classes.length;
    }
    this.width = width;
    this.biases = models.map((model) => [...model.bias]);
    this.rows = new Map();
    for (const model of models) for (const name of Object.keys(model.weights)) if (!this.rows.has(name)) this.rows.set(name, this.rows.size * width);
    this.table = new Float32Array(this.rows.size * width);
    models.forEach((model, modelIndex) => {
      const offset = this.offsets[modelIndex]!;
      for (const [name, weights] of Object.entries(model.weights)) {
        const row = this.rows.get(name)!;
        weights.forEach((weight, classIndex) => {
          this.table[row + offset + classIndex] = weight;
        });
      }
    });
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
    for (let position = 0; position < rows.length; position += 1) {
      const row = rows[position]!;
      const value = values[position]!;
      for (let index = 0; index < this.width; index += 1) sums[index]! += value * this.table[row + index]!;
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
      const row = rows[position]! + offset;
      let sum = 0;
      for (let index = 0; index < classCount; index += 1) sum += this.table[row + index]!;
      const weight = values[position]! * (this.table[row + classIndex]! - sum / classCount);
      if (weight > 0) contributions.push({ feature: names[position]!, weight: round(weight, 4) });
    }
    return contributions.sort((left, right) => right.weight - left.weight).slice(0, limit);
  }
}
