import type { TopicClassifier } from '../classify/topic/classifier.js';
import type { TopicCase } from './topic-cases.js';
import { caseMessages } from './topic-cases.js';
import type { TopicMetrics } from './topic-metrics.js';
import { topicMetrics } from './topic-metrics.js';
import { percentileMs, timeDecisions } from './timing.js';

export interface TopicEvalReport extends TopicMetrics {
  mode: string;
  p50_ms: number;
  p99_ms: number;
  /** p99 of each case's first timed run alone (scheduler noise included); `p99_ms` uses each case's median run. */
  p99_single_run_ms: number;
  misses: { id: string; expected: string; predicted: string; confidence: number }[];
  /** Share of cases carrying an `action` (intent) label whose predicted intent matches it; absent when none do. */
  action_accuracy?: number;
  action_cases?: number;
}

/**
 * Classifies every case and scores it. The classifier is warmed on its own synthetic turns (never the cases),
 * as a running gateway is at start-up; each case is then timed over `timingPasses` passes and its median kept.
 */
export function runTopicEval(cases: readonly TopicCase[], classifier: TopicClassifier, timingPasses = 9): TopicEvalReport {
  classifier.warmUp();
  const inputs = cases.map((topicCase) => caseMessages(topicCase));
  const timed = timeDecisions(inputs, (messages) => classifier.classify(messages), timingPasses);
  const outcomes = cases.map((topicCase, index) => ({ topicCase, result: timed.outputs[index]! }));
  const metrics = topicMetrics(outcomes.map(({ topicCase, result }) => ({ predicted: result.topic, topic: topicCase.topic, acceptable: topicCase.acceptable_topics })));
  const withAction = outcomes.filter(({ topicCase }) => topicCase.action);
  const actionReport = withAction.length
    ? {
        action_cases: withAction.length,
        action_accuracy: Math.round((withAction.filter(({ topicCase, result }) => topicCase.action === result.intent).length / withAction.length) * 10000) / 10000,
      }
    : {};
  return {
    mode: classifier.mode,
    ...actionReport,
    ...metrics,
    p50_ms: percentileMs(timed.medianMs, 50),
    p99_ms: percentileMs(timed.medianMs, 99),
    p99_single_run_ms: percentileMs(timed.firstRunMs, 99),
    misses: outcomes
      .filter(({ topicCase, result }) => result.topic !== topicCase.topic && !topicCase.acceptable_topics?.includes(result.topic))
      .map(({ topicCase, result }) => ({ id: topicCase.id, expected: topicCase.topic, predicted: result.topic, confidence: result.confidence })),
  };
}
