import type { LinearModelJson } from '../text/linear-model.js';

/** The topic model: two heads (intent, topic) and how they are combined (shipped packed as data/topics/weights.bin, packed-weights.ts). */
export interface TopicWeightsJson {
  topic: LinearModelJson;
  intent: LinearModelJson;
  /** P(topic | intent) estimated from the training labels (rows: intent classes; columns: topic classes). */
  intentTopicTable: number[][];
  /** How strongly the intent head's prior reshapes the topic head (0 = subject only). Chosen by cross-validation. */
  intentWeight: number;
  /** Below this calibrated confidence the answer is `none`; chosen by cross-validation for none precision. */
  minConfidence: number;
  trainedOn: { files: string[]; examples: number };
}
