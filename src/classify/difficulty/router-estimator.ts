import { TopicClassifier } from '../topic/classifier.js';
import { shippedDifficultyEstimator } from './estimate.js';

/**
 * The shape of the model router's `DifficultyEstimator` (models/difficulty/difficulty-estimator.ts), restated
 * here because classify sits below models: the router takes this object as it is.
 */
export interface LevelEstimator {
  readonly name: string;
  estimate(text: string): { level: number; reason: string };
}

export interface LearnedDifficultyEstimatorOptions {
  /**
   * Short turns that need no specialist (greetings, thanks, everyday chat) are outside the RouteLLM training
   * data, where the model rates them medium-hard. Turns of at most this many words that the topic classifier
   * sends to `none` get level 5 (easiest) instead. 0 turns the rule off.
   */
  chitChatMaxWords?: number;
  topicClassifier?: TopicClassifier;
}

/**
 * The learned estimator behind the model router's `DifficultyEstimator` interface (`difficulty.estimator:
 * learned`). Levels share the router's scale: 1 hardest … 5 easiest. The reason names the probability and the
 * strongest features so the decision record explains the level.
 */
export function learnedDifficultyEstimator(options: LearnedDifficultyEstimatorOptions = {}): LevelEstimator {
  const chitChatMaxWords = options.chitChatMaxWords ?? 12;
  let topicClassifier = options.topicClassifier;
  return {
    name: 'learned',
    estimate(text: string) {
      if (chitChatMaxWords > 0 && text.trim().split(/\s+/).length <= chitChatMaxWords) {
        topicClassifier ??= new TopicClassifier();
        const topic = topicClassifier.classifyTurns([text]);
        if (topic.topic === 'none') return { level: 5, reason: `short turn with no specialist topic (${topic.intent}): outside the learned model's training data` };
      }
      const estimate = shippedDifficultyEstimator().estimate(text);
      const features = estimate.features.slice(0, 3).map((item) => item.feature).join(', ');
      return { level: estimate.level, reason: `learned p=${estimate.probability}${features ? ` (${features})` : ''}` };
    },
  };
}
