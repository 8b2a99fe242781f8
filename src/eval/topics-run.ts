import { performance } from 'node:perf_hooks';
import type { TopicClassifier } from '../classify/topic/classifier.js';
import type { TopicCase } from './topic-cases.js';
import { caseMessages } from './topic-cases.js';
import type { TopicMetrics } from './topic-metrics.js';
import { topicMetrics } from './topic-metrics.js';
import { percentileMs } from './timing.js';

export interface TopicEvalReport extends TopicMetrics {
  mode: string;
  p50_ms: number;
  p99_ms: number;
  misses: { id: string; expected: string; predicted: string; confidence: number }[];
  /** Share of cases carrying an `action` (intent) label whose predicted intent matches it; absent when none do. */
  action_accuracy?: number;
  action_cases?: number;
}

/** Classifies every case once (after one warm-up pass) and scores it. */
export function runTopicEval(cases: readonly TopicCase[], classifier: TopicClassifier): TopicEvalReport {
  for (const topicCase of cases.slice(0, 50)) classifier.classify(caseMessages(topicCase));
  const durations: number[] = [];
  const outcomes = cases.map((topicCase) => {
    const started = performance.now();
    const result = classifier.classify(caseMessages(topicCase));
    durations.push(performance.now() - started);
    return { topicCase, result };
  });
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
    p50_ms: percentileMs(durations, 50),
    p99_ms: percentileMs(durations, 99),
    misses: outcomes
      .filter(({ topicCase, result }) => result.topic !== topicCase.topic && !topicCase.acceptable_topics?.includes(result.topic))
      .map(({ topicCase, result }) => ({ id: topicCase.id, expected: topicCase.topic, predicted: result.topic, confidence: result.confidence })),
  };
}
