import type { DifficultyEstimator } from './difficulty-estimator.js';

/** Where the classifier module exports `learnedDifficultyEstimator()` (src/classify/difficulty/). */
const learnedModule = '../../classify/difficulty/router-estimator.js';

function isEstimator(value: unknown): value is DifficultyEstimator {
  return typeof value === 'object' && value !== null && typeof (value as { estimate?: unknown }).estimate === 'function';
}

/**
 * Loads the learned difficulty estimator (`routing.difficulty.estimator: learned`). Resolved at run time so the
 * router does not depend on the classifier's weights at build time; undefined (and the heuristic stays) when the
 * module or its weights cannot be loaded.
 */
export async function loadLearnedDifficulty(): Promise<{ estimator?: DifficultyEstimator; error?: string }> {
  try {
    const loaded: unknown = await import(learnedModule);
    const factory = (loaded as { learnedDifficultyEstimator?: unknown }).learnedDifficultyEstimator;
    if (typeof factory !== 'function') return { error: `${learnedModule} exports no learnedDifficultyEstimator()` };
    const estimator: unknown = factory();
    if (!isEstimator(estimator)) return { error: 'learnedDifficultyEstimator() did not return an estimator' };
    // Load the weights now, so a broken weights file shows at start and not on the first request.
    estimator.estimate('warm up');
    return { estimator };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
