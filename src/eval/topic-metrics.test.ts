import { describe, expect, it } from 'vitest';
import { topicMetrics } from './topic-metrics.js';

describe('topicMetrics', () => {
  it('matches a hand-computed example with an acceptable topic', () => {
    const metrics = topicMetrics([
      { predicted: 'math', topic: 'math' },
      { predicted: 'science', topic: 'math', acceptable: ['science'] },
      { predicted: 'none', topic: 'software_it' },
      { predicted: 'none', topic: 'none' },
      { predicted: 'writing_language', topic: 'none' },
    ]);
    expect(metrics.accuracy).toBe(0.6);
    expect(metrics.strict_accuracy).toBe(0.4);
    expect(metrics.none_precision).toBe(0.5);
    expect(metrics.none_recall).toBe(0.5);
    expect(metrics.per_topic.science).toEqual({ precision: 1, recall: 1, f1: 1, support: 1 });
    expect(metrics.per_topic.software_it?.recall).toBe(0);
    expect(metrics.per_topic.writing_language?.precision).toBe(0);
    // F1 over math, none, science, software_it, writing_language: (1 + 0.5 + 1 + 0 + 0) / 5.
    expect(metrics.macro_f1).toBe(0.5);
  });
});
