import type { DifficultyEstimator } from '../../models/difficulty/difficulty-estimator.js';
import { shippedDifficultyEstimator } from './estimate.js';

/**
 * The learned estimator behind the model router's `DifficultyEstimator` interface (`difficulty.estimator:
 * learned`). Levels share the router's scale: 1 hardest … 5 easiest. The reason names the probability and the
 * strongest features so the decision record explains the level.
 */
export function learnedDifficultyEstimator(): DifficultyEstimator {
  return {
    name: 'learned',
    estimate(text: string) {
      const estimate = shippedDifficultyEstimator().estimate(text);
      const features = estimate.features.slice(0, 3).map((item) => item.feature).join(', ');
      return { level: estimate.level, reason: `learned p=${estimate.probability}${features ? ` (${features})` : ''}` };
    },
  };
}
