import type { BoostingOptions } from '../trees/train-boosted-trees.js';
import { trainBoostedTrees } from '../trees/train-boosted-trees.js';
import { correctionInputNames, correctionInputs, linearGain } from './correction-inputs.js';
import type { DifficultyLinearJson, DifficultyPromptRow } from './linear-stage.js';
import { DifficultyLinear, trainDifficultyLinear } from './linear-stage.js';
import type { DifficultyCorrectionJson } from './model.js';
import { leaveOneOutSubjectPriorInputs, meaningDirection, trainSubjectPrior } from './subject-prior.js';

export type DifficultyRouterRow = DifficultyPromptRow;

export interface DifficultyRouterJson extends DifficultyLinearJson {
  correction: DifficultyCorrectionJson;
}

/**
 * Few, slow trees: the gain label is one noisy answer per prompt. Picked by 5-fold cross-validation on the
 * RouteLLM dev split among a dozen settings: faster or longer boosting (rate 0.05, 200 trees) lost held-out
 * APGR; leaves of 50 rows at depth 4 let the trees give GSM8K's ~750 training prompts their own splits
 * (GSM8K APGR 0.616 → 0.630 against leaves of 200 at depth 3, overall unchanged).
 */
export const correctionBoostingOptions: BoostingOptions = { trees: 100, depth: 4, learningRate: 0.025, minLeafWeight: 50, l2: 10, bins: 32, subsample: 0.8, seed: 7 };

/**
 * Trains the linear outcome models (one per prompt kind, `linear-stage.ts`) on all rows, and the tree correction on out-of-fold linear predictions (the
 * trees must learn from predictions like those the model makes on prompts it has not seen). `outOfFold` lets a
 * caller that already has them (nested cross-validation) skip the inner fits; otherwise rows are split by
 * index mod `folds`.
 */
export function trainDifficultyRouter(
  rows: readonly DifficultyRouterRow[],
  options: { folds?: number; outOfFold?: readonly (readonly number[])[]; boosting?: BoostingOptions } = {},
): DifficultyRouterJson {
  const folds = options.folds ?? 5;
  const outOfFold = options.outOfFold ?? outOfFoldProbabilities(rows, folds);
  const gains = rows.map((row) => row.quality.strong - row.quality.weak);
  const estimates = outOfFold.map((probabilities) => linearGain(probabilities));
  const scale = leastSquaresSlope(estimates, gains);
  // The subject prior from the rows' subject labels; each training row's own inputs leave it out of its subject.
  const priorRows = rows.map((row) => ({ subject: row.subject ?? '', direction: meaningDirection(row.features), quality: row.quality }));
  const subjectPrior = trainSubjectPrior(priorRows);
  const priorInputs = leaveOneOutSubjectPriorInputs(priorRows);
  const trees = trainBoostedTrees(
    rows.map((row, index) => ({ values: correctionInputs(row.prompt, outOfFold[index]!, priorInputs[index]), target: gains[index]!, offset: scale * estimates[index]! })),
    correctionInputNames,
    options.boosting ?? correctionBoostingOptions,
  );
  return { ...trainDifficultyLinear(rows), correction: { scale: Math.round(scale * 1e4) / 1e4, trees, ...(subjectPrior ? { subjectPrior } : {}) } };
}

export function outOfFoldProbabilities(rows: readonly DifficultyRouterRow[], folds: number): number[][] {
  const probabilities: number[][] = new Array(rows.length);
  for (let fold = 0; fold < folds; fold += 1) {
    const linear = new DifficultyLinear(trainDifficultyLinear(rows.filter((_, index) => index % folds !== fold)));
    rows.forEach((row, index) => {
      if (index % folds === fold) probabilities[index] = linear.predict(row.prompt, row.features);
    });
  }
  return probabilities;
}

/** Slope of the least-squares line of `targets` on `inputs` (with an intercept); 1 when the inputs do not vary. */
function leastSquaresSlope(inputs: readonly number[], targets: readonly number[]): number {
  const meanInput = inputs.reduce((sum, value) => sum + value, 0) / Math.max(1, inputs.length);
  const meanTarget = targets.reduce((sum, value) => sum + value, 0) / Math.max(1, targets.length);
  let covariance = 0;
  let variance = 0;
  inputs.forEach((input, index) => {
    covariance += (input - meanInput) * (targets[index]! - meanTarget);
    variance += (input - meanInput) ** 2;
  });
  return variance > 0 ? covariance / variance : 1;
}
