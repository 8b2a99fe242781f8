import { wordVectorTable } from '../features/word-vectors.js';
import { round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import { StackedLinearModels } from '../text/stacked-linear-models.js';
import { topicFeatures } from './features.js';
import type { TopicWeightsJson } from './model.js';
import type { PackedTopicWeights } from './packed-weights.js';
import type { Intent, Topic } from './taxonomy.js';
import { intents, topics } from './taxonomy.js';

export interface TopicScores {
  /** Calibrated probabilities over every topic, `none` included; they sum to 1. */
  probabilities: Record<Topic, number>;
  intent: Intent;
  intentConfidence: number;
  /** Features that pushed the top topic up, then the top intent's (prefixed `intent:`). */
  features: FeatureContribution[];
}

/**
 * The learned topic model. The intent head decides what kind of help is wanted (technical, analytical,
 * creative, conversational); its distribution becomes a prior over topics through P(topic | intent), and the
 * subject head (words, n-grams) breaks the tie among the topics that intent allows. With `intentWeight` 0
 * the subject head alone decides.
 */
export class LearnedTopicModel {
  /** Model 0: the subject head (topics), model 1: the intent head; one lookup per feature serves both. */
  private readonly heads: StackedLinearModels;
  private readonly intentTopicTable: readonly (readonly number[])[];
  private readonly intentWeight: number;
  /** The trained `none` threshold. */
  readonly minConfidence: number;

  /** Keeps no reference to JSON `weights`: the parsed JSON (most of the heap the model would hold) can be collected. */
  constructor(weights: TopicWeightsJson | PackedTopicWeights) {
    this.heads = new StackedLinearModels('heads' in weights ? weights.heads : [weights.topic, weights.intent]);
    this.intentTopicTable = weights.intentTopicTable;
    this.intentWeight = weights.intentWeight;
    this.minConfidence = weights.minConfidence;
    // Read the word-vector table now, with the weights (at start-up), rather than during the first request.
    wordVectorTable();
  }

  /** `explain: false` leaves `features` empty (a reading only compared, never shown, need not pay for it). */
  score(userTurns: readonly string[], explain = true): TopicScores {
    const features = this.heads.match(topicFeatures(userTurns));
    const [topicPrediction, intentPrediction] = this.heads.predict(features);
    const topicProbabilities = topicPrediction!.probabilities;
    const intentProbabilities = intentPrediction!.probabilities;
    const combined = combineIntentAndSubject(topicProbabilities, intentProbabilities, this.intentTopicTable, this.intentWeight);

    const probabilities = Object.fromEntries(topics.map((topic) => [topic, 0])) as Record<Topic, number>;
    this.heads.models[0]!.classes.forEach((name, index) => {
      probabilities[name as Topic] = round(combined[index] ?? 0, 4);
    });
    const topTopicIndex = argmax(combined);
    const topIntentIndex = argmax(intentProbabilities);
    const intent = (this.heads.models[1]!.classes[topIntentIndex] ?? 'conversational') as Intent;
    return {
      probabilities,
      intent: intents.includes(intent) ? intent : 'conversational',
      intentConfidence: round(intentProbabilities[topIntentIndex] ?? 0, 4),
      features: explain
        ? [
            ...this.heads.explain(features, 0, topTopicIndex, 4),
            ...this.heads.explain(features, 1, topIntentIndex, 2).map((item) => ({ ...item, feature: `intent:${item.feature}` })),
          ]
        : [],
    };
  }
}

/** log P(topic) = log P_subject(topic) + w · log Σ_intent P(intent) · P(topic | intent), renormalised. */
export function combineIntentAndSubject(subject: readonly number[], intent: readonly number[], table: readonly (readonly number[])[], weight: number): number[] {
  if (weight === 0) return [...subject];
  const logScores = subject.map((probability, topicIndex) => {
    let prior = 0;
    intent.forEach((intentProbability, intentIndex) => {
      prior += intentProbability * (table[intentIndex]?.[topicIndex] ?? 0);
    });
    return Math.log(Math.max(probability, 1e-12)) + weight * Math.log(Math.max(prior, 1e-6));
  });
  const maximum = Math.max(...logScores);
  const exponentials = logScores.map((score) => Math.exp(score - maximum));
  const total = exponentials.reduce((sum, value) => sum + value, 0);
  return exponentials.map((value) => value / total);
}

export function argmax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1) if ((values[index] ?? -Infinity) > (values[best] ?? -Infinity)) best = index;
  return best;
}

/**
 * The specialist decision: the most probable topic other than `none` wins when its calibrated probability
 * reaches `minConfidence`; otherwise the turn gets no specialist. Comparing the best specialist against the
 * threshold (rather than against P(none)) keeps `none` for turns where no specialist is likely, which is what
 * none precision measures.
 */
export function decideTopic(probabilities: readonly number[], minConfidence: number): { topic: Topic; confidence: number } {
  let best = -1;
  probabilities.forEach((probability, index) => {
    if (topics[index] === 'none') return;
    if (best < 0 || probability > (probabilities[best] ?? 0)) best = index;
  });
  const confidence = probabilities[best] ?? 0;
  if (best >= 0 && confidence >= minConfidence) return { topic: topics[best]!, confidence };
  return { topic: 'none', confidence: probabilities[topics.indexOf('none')] ?? 1 - confidence };
}
