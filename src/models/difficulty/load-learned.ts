import { learnedDifficultyEstimator } from '../../classify/difficulty/router-estimator.js';
import type { DifficultyEstimator } from './difficulty-estimator.js';

/**
 * Loads the learned difficulty estimator (`routing.difficulty.estimator: learned`): the classifier's module is
 * code only; its weights are read here, on this first call, so a broken weights file shows at start and not on
 * the first request. Undefined (and the heuristic stays) when the weights cannot be loaded.
 */
export async function loadLearnedDifficulty(): Promise<{ estimator?: DifficultyEstimator; error?: string }> {
  try {
    const estimator: DifficultyEstimator = learnedDifficultyEstimator();
    estimator.estimate('warm up');
    return { estimator };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
