import type { LinearModelJson } from '../text/linear-model.js';
import { trainLinearModel } from '../text/train-linear-model.js';
import { topicFeatures } from './features.js';
import { intents, topics } from './taxonomy.js';
import type { TopicTrainingExample } from './training-data.js';

export const topicTrainingOptions = { epochs: 25, learningRate: 0.3, l2: 1e-4, minFeatureCount: 1, seed: 11, pruneBelow: 5e-3 } as const;

export interface TrainedHeads {
  topic: LinearModelJson;
  intent: LinearModelJson;
}

/** Trains both heads on the same features; deterministic for a given example order. `options` override topicTrainingOptions (trials). */
export function trainTopicHeads(examples: readonly TopicTrainingExample[], options: { minFeatureCount?: number } = {}): TrainedHeads {
  const rows = examples.map((example) => ({ example, features: topicFeatures(example.turns) }));
  const topic = trainLinearModel(
    rows.map(({ example, features }) => ({ features, label: topics.indexOf(example.topic), weight: example.weight ?? 1 })),
    { classes: [...topics], ...topicTrainingOptions, ...options },
  );
  // Examples without an intent label train the subject head only.
  const intent = trainLinearModel(
    rows.filter(({ example }) => example.intent !== undefined).map(({ example, features }) => ({ features, label: intents.indexOf(example.intent!), weight: example.weight ?? 1 })),
    { classes: [...intents], ...topicTrainingOptions, ...options },
  );
  return { topic, intent };
}

/** P(topic | intent) with add-one smoothing, rows in `intents` order, columns in `topics` order. */
export function intentTopicTable(examples: readonly TopicTrainingExample[]): number[][] {
  return intents.map((intent) => {
    const counts = topics.map((topic) => 1 + examples.filter((example) => example.intent === intent && example.topic === topic).length);
    const total = counts.reduce((sum, count) => sum + count, 0);
    return counts.map((count) => Math.round((count / total) * 1e4) / 1e4);
  });
}
