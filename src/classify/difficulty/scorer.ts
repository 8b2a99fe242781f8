import { LinearModel } from '../text/linear-model.js';
import type { LinearModelJson } from '../text/linear-model.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { BoostedTrees } from '../trees/boosted-trees.js';
import { correctionInputs, linearGain } from './correction-inputs.js';
import type { DifficultyCorrectionJson } from './model.js';
import { routingProbability } from './model.js';

export interface DifficultyScore {
  /** Linear outcome probabilities: both, strong only, neither, weak only. */
  probabilities: number[];
  /** (1 + expected gain of the strong model) / 2, in [0, 1]: the routing score. */
  probability: number;
}

/** The linear outcome model, corrected by the boosted trees when the weights carry them. */
export class DifficultyScorer {
  readonly linear: LinearModel;
  private readonly trees?: BoostedTrees;

  constructor(model: LinearModelJson, private readonly correction?: DifficultyCorrectionJson) {
    this.linear = new LinearModel(model);
    if (correction) this.trees = new BoostedTrees(correction.trees);
  }

  score(prompt: string, features: SparseVector): DifficultyScore {
    const { probabilities } = this.linear.predict(features);
    if (!this.trees || !this.correction) return { probabilities, probability: routingProbability(probabilities) };
    const gain = this.correction.scale * linearGain(probabilities) + this.trees.predict(correctionInputs(prompt, probabilities));
    return { probabilities, probability: Math.min(1, Math.max(0, (1 + gain) / 2)) };
  }
}
