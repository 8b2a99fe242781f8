import { wordVectorTable } from '../features/word-vectors.js';
import { round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import { readPackageJson } from '../text/package-data.js';
import { difficultyFeatures } from './features.js';
import type { DifficultyWeightsJson } from './model.js';
import { DifficultyScorer } from './scorer.js';

export interface DifficultyEstimate {
  /**
   * Probability that the strong model is the better choice (ties counted half): what `difficulty.threshold`
   * is compared against. Higher means harder for the cheap model.
   */
  probability: number;
  /** Probability that the cheap model gets the prompt wrong, whether or not the strong one would do better. */
  cheapFailure: number;
  /**
   * 1 (hardest fifth of training prompts) to 5 (easiest fifth): the project's scale, where 1 also means the
   * strongest capability tier.
   */
  level: 1 | 2 | 3 | 4 | 5;
  /** The features that pushed the prompt toward "only the strong model gets it right". */
  features: FeatureContribution[];
}

export class LearnedDifficultyModel {
  private readonly scorer: DifficultyScorer;

  constructor(readonly weights: DifficultyWeightsJson) {
    this.scorer = new DifficultyScorer(weights.model, weights.correction, weights.kindModels);
    // Read the word-vector table now, with the weights, rather than during the first request.
    wordVectorTable();
  }

  estimate(text: string): DifficultyEstimate {
    const features = difficultyFeatures(text);
    const { probabilities, probability } = this.scorer.score(text, features);
    const level = 5 - this.weights.levelCutpoints.filter((cutpoint) => probability > cutpoint).length;
    return {
      probability: round(probability, 4),
      cheapFailure: round((probabilities[1] ?? 0) + (probabilities[2] ?? 0), 4),
      level: Math.max(1, Math.min(5, level)) as DifficultyEstimate['level'],
      features: this.scorer.linearFor(text).explain(features, 1, 5),
    };
  }
}

let shipped: LearnedDifficultyModel | undefined;

/** The estimator with the shipped weights, loaded once on first use. */
export function shippedDifficultyEstimator(): LearnedDifficultyModel {
  shipped ??= new LearnedDifficultyModel(readPackageJson<DifficultyWeightsJson>('data/difficulty/weights.json'));
  return shipped;
}

export function estimateDifficulty(text: string): DifficultyEstimate {
  return shippedDifficultyEstimator().estimate(text);
}
