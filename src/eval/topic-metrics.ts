/**
 * Topic-routing metrics. A prediction counts as correct when it is the case's topic or one of its
 * `acceptable_topics`; for per-topic precision/recall the case's effective label is then the predicted topic,
 * so an acceptable answer is never counted as a false positive for one topic and a miss for another.
 */
export interface TopicOutcome {
  predicted: string;
  topic: string;
  acceptable?: readonly string[];
}

export interface PerTopicMetrics {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface TopicMetrics {
  cases: number;
  accuracy: number;
  strict_accuracy: number;
  macro_f1: number;
  /** Of the turns sent to the default model, the share that needed no specialist (1 when nothing was sent). */
  none_precision: number;
  /** Of the turns that needed no specialist, the share sent to the default model (1 when there were none). */
  none_recall: number;
  per_topic: Record<string, PerTopicMetrics>;
}

export function topicMetrics(outcomes: readonly TopicOutcome[]): TopicMetrics {
  const effective = outcomes.map((outcome) => (outcome.predicted === outcome.topic || outcome.acceptable?.includes(outcome.predicted) ? outcome.predicted : outcome.topic));
  const correct = outcomes.filter((outcome, index) => outcome.predicted === effective[index]).length;
  const strict = outcomes.filter((outcome) => outcome.predicted === outcome.topic).length;
  const labels = [...new Set([...effective, ...outcomes.map((outcome) => outcome.predicted)])].sort();
  const perTopic: Record<string, PerTopicMetrics> = {};
  for (const label of labels) {
    let truePositive = 0;
    let predictedCount = 0;
    let actualCount = 0;
    outcomes.forEach((outcome, index) => {
      const isPredicted = outcome.predicted === label;
      const isActual = effective[index] === label;
      if (isPredicted) predictedCount += 1;
      if (isActual) actualCount += 1;
      if (isPredicted && isActual) truePositive += 1;
    });
    const precision = predictedCount ? truePositive / predictedCount : 1;
    const recall = actualCount ? truePositive / actualCount : 1;
    perTopic[label] = { precision: round(precision), recall: round(recall), f1: round(precision + recall ? (2 * precision * recall) / (precision + recall) : 0), support: actualCount };
  }
  // Like scikit-learn: the mean over every label that occurs as a label or as a prediction.
  const macroF1 = labels.length ? labels.reduce((sum, label) => sum + (perTopic[label]?.f1 ?? 0), 0) / labels.length : 0;
  return {
    cases: outcomes.length,
    accuracy: round(outcomes.length ? correct / outcomes.length : 0),
    strict_accuracy: round(outcomes.length ? strict / outcomes.length : 0),
    macro_f1: round(macroF1),
    none_precision: perTopic.none?.precision ?? 1,
    none_recall: perTopic.none?.recall ?? 1,
    per_topic: perTopic,
  };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
