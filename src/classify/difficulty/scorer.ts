import type { LinearModel, LinearModelJson } from '../text/linear-model.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { BoostedTrees } from '../trees/boosted-trees.js';
import { correctionInputs, linearGain } from './correction-inputs.js';
import { DifficultyLinear } from './linear-stage.js';
import type { PromptKind } from './prompt-kind.js';
import type { DifficultyCorrectionJson } from './model.js';
import { SubjectPrior, meaningDirection } from './subject-prior.js';
import { routingProbability } from './model.js';

export interface DifficultyScore {
  /** Linear outcome probabilities: both, strong only, neither, weak only. */
  probabilities: number[];
  /** (1 + expected gain of the strong model) / 2, in [0, 1]: the routing score. */
  probability: number;
}

/**
 * The linear outcome model of the prompt's kind (`kindModels`, else `model`), corrected by the boosted trees
 * when the weights carry them.
 */
export class DifficultyScorer {
  private readonly linear: DifficultyLinear;
  private readonly trees?: BoostedTrees;
  private readonly subjectPrior?: SubjectPrior;

  constructor(model: LinearModelJson, private readonly correction?: DifficultyCorrectionJson, kindModels?: Partial<Record<PromptKind, LinearModelJson>>) {
    this.linear = new DifficultyLinear(kindModels ? { model, kindModels } : { model });
    if (correction) {
      this.trees = new BoostedTrees(correction.trees);
      this.subjectPrior = new SubjectPrior(correction.subjectPrior);
    }
  }

  /** The linear model that scores this prompt (for explanations). */
  linearFor(prompt: string): LinearModel {
    return this.linear.modelFor(prompt);
  }

  score(prompt: string, features: SparseVector): DifficultyScore {
    const probabilities = this.linear.predict(prompt, features);
    if (!this.trees || !this.correction) return { probabilities, probability: routingProbability(probabilities) };
    const gain = this.correction.scale * linearGain(probabilities) + this.trees.predict(correctionInputs(prompt, probabilities, this.subjectPrior?.inputs(meaningDirection(features))));
    return { probabilities, probability: Math.min(1, Math.max(0, (1 + gain) / 2)) };
  }
}
