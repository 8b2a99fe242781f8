import type { LinearModelJson } from '../text/linear-model.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { trainLinearModel } from '../text/train-linear-model.js';
import { outcomeClasses, outcomeOf } from './model.js';

export interface DifficultyTrainingRow {
  features: SparseVector;
  quality: { weak: number; strong: number };
}

/**
 * Few, gentle passes on purpose: in 5-fold cross-validation on the RouteLLM dev split, three AdaGrad epochs at
 * rate 0.05 generalised better than longer training, which memorises individual MMLU questions.
 */
export const difficultyTrainingOptions = { epochs: 3, learningRate: 0.05, l2: 1e-5, minFeatureCount: 4, seed: 7, pruneBelow: 6e-3 } as const;

export function trainDifficultyModel(rows: readonly DifficultyTrainingRow[]): LinearModelJson {
  const examples = rows.map((row) => ({ features: row.features, label: outcomeClasses.indexOf(outcomeOf(row.quality)) }));
  return trainLinearModel(examples, { classes: [...outcomeClasses], ...difficultyTrainingOptions });
}
