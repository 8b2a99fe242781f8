import type { LinearModelJson } from '../text/linear-model.js';
import type { BoostedTreesJson } from '../trees/boosted-trees.js';
import type { PromptKind } from './prompt-kind.js';
import type { SubjectPriorJson } from './subject-prior.js';

/**
 * The shipped difficulty weights (data/difficulty/weights.json). The model predicts which of four outcomes a
 * prompt has: both models right, only the strong model right (`strong_only`, the failures routing can fix),
 * neither right, only the weak model right.
 */
export interface DifficultyWeightsJson {
  /** The linear outcome model for prompts whose kind has no model of its own (all prompts in older weights). */
  model: LinearModelJson;
  /** Linear outcome models of their own for some prompt kinds (`prompt-kind.ts`): multiple-choice questions. */
  kindModels?: Partial<Record<PromptKind, LinearModelJson>>;
  /** Boosted trees that correct the linear gain estimate from the prompt's structure; absent in older weights. */
  correction?: DifficultyCorrectionJson;
  /** Quintile boundaries of held-out `probability` (ascending); above all four → level 1 (hardest), below all → 5. */
  levelCutpoints: number[];
  /** The threshold that, on held-out training folds, reached 95% of always-strong quality at least cost. */
  suggestedThreshold: number;
  trainedOn: { file: string; rows: number; sha256: string };
}

/**
 * gain = scale × (P(strong only) − P(weak only)) + trees(inputs): the expected quality the strong model adds.
 * `scale` is the least-squares fit of the linear estimate to the observed gain on out-of-fold predictions.
 */
export interface DifficultyCorrectionJson {
  scale: number;
  trees: BoostedTreesJson;
  /** Subjects' mean outcomes, one of the trees' inputs; absent in older weights (its inputs are then 0). */
  subjectPrior?: SubjectPriorJson;
}

export const outcomeClasses = ['both', 'strong_only', 'neither', 'weak_only'] as const;
export type Outcome = (typeof outcomeClasses)[number];

export function outcomeOf(quality: { weak: number; strong: number }): Outcome {
  const weakRight = quality.weak >= 0.75;
  const strongRight = quality.strong >= 0.75;
  if (weakRight) return strongRight ? 'both' : 'weak_only';
  return strongRight ? 'strong_only' : 'neither';
}

/**
 * Folds the four outcome probabilities into the routing probability: the chance that the strong model is the
 * better choice for this prompt, counting the outcomes where both models do equally well as half.
 * Ranking by this (P(strong only) − P(weak only)) recovered far more quality per strong call in cross-validation
 * than ranking by P(weak fails) alone (APGR 0.665 against 0.578), because many prompts the weak model fails
 * are failed by the strong model too.
 */
export function routingProbability(probabilities: readonly number[]): number {
  const strongOnly = probabilities[1] ?? 0;
  const weakOnly = probabilities[3] ?? 0;
  return (1 + strongOnly - weakOnly) / 2;
}
