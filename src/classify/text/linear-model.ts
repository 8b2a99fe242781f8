import type { SparseVector } from './sparse-vector.js';

/**
 * A multinomial logistic-regression model over named features, serialised as plain JSON. Keeping feature
 * names (rather than hashed buckets) is what makes every decision explainable: the top contributions are
 * readable words and n-grams.
 */
export interface LinearModelJson {
  classes: string[];
  bias: number[];
  /** feature name → one weight per class */
  weights: Record<string, number[]>;
  /** Calibration: logits are divided by this before the softmax (fitted on held-out folds). */
  temperature: number;
}

export interface FeatureContribution {
  feature: string;
  /** How much this feature moved the chosen class's logit relative to the average class. */
  weight: number;
}

export interface LinearPrediction {
  /** Probabilities in `classes` order, after temperature scaling. */
  probabilities: number[];
  logits: number[];
}

export class LinearModel {
  readonly classes: readonly string[];
  private readonly bias: number[];
  private readonly weights: Map<string, number[]>;
  readonly temperature: number;

  constructor(json: LinearModelJson) {
    this.classes = json.classes;
    this.bias = json.bias;
    this.weights = new Map(Object.entries(json.weights));
    this.temperature = json.temperature > 0 ? json.temperature : 1;
  }

  predict(features: SparseVector): LinearPrediction {
    const logits = [...this.bias];
    for (const [name, value] of features) {
      const row = this.weights.get(name);
      if (!row) continue;
      for (let index = 0; index < logits.length; index += 1) logits[index]! += value * row[index]!;
    }
    return { logits, probabilities: softmax(logits, this.temperature) };
  }

  /** The features that pushed `classIndex` up the most against the other classes. */
  explain(features: SparseVector, classIndex: number, limit = 5): FeatureContribution[] {
    const contributions: FeatureContribution[] = [];
    for (const [name, value] of features) {
      const row = this.weights.get(name);
      if (!row) continue;
      const mean = row.reduce((sum, weight) => sum + weight, 0) / row.length;
      const weight = value * ((row[classIndex] ?? 0) - mean);
      if (weight > 0) contributions.push({ feature: name, weight: round(weight, 4) });
    }
    return contributions.sort((left, right) => right.weight - left.weight).slice(0, limit);
  }
}

export function softmax(logits: readonly number[], temperature = 1): number[] {
  const scaled = logits.map((logit) => logit / temperature);
  const maximum = Math.max(...scaled);
  const exponentials = scaled.map((logit) => Math.exp(logit - maximum));
  const total = exponentials.reduce((sum, value) => sum + value, 0);
  return exponentials.map((value) => value / total);
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
