/**
 * The honest generalisation figure for topics: for each writer in data/topics/train-writers/ (people who never
 * saw the model), fit the shipped recipe (topic-fit.ts) on everything except that writer's cases, then score
 * those cases as `eval topics` does. With `--before FILE` it also scores a given weights file (for example the
 * weights shipped before the writer's data existed) on the same cases.
 *
 * `--also-hybrid` scores the same fit in hybrid mode too (a learned `none` backed by two lexicon terms of one topic
 * takes that topic).
 *
 * `--none-targets 0.97,0.98` also scores, from the same fit, the threshold each of those held-out none-precision
 * targets would choose.
 *
 *   npx tsx scripts/classifiers/leave-one-writer-out.ts [--writer writer-1] [--before /tmp/weights.bin] [--also-hybrid] [--none-targets 0.97]
 */
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import type { TopicWeightsJson } from '../../src/classify/topic/model.js';
import type { PackedTopicWeights } from '../../src/classify/topic/packed-weights.js';
import { readTopicWeightsFile } from '../../src/classify/topic/packed-weights.js';
import { readTopicCases } from '../../src/eval/topic-cases.js';
import { runTopicEval } from '../../src/eval/topics-run.js';
import type { GridPoint } from './topic-fit.js';
import { chooseOperatingPoint, fitTopicWeights } from './topic-fit.js';
import { writerFolds } from './writer-folds.js';

const { values } = parseArgs({ options: { writer: { type: 'string' }, before: { type: 'string' }, 'also-hybrid': { type: 'boolean' }, 'none-targets': { type: 'string' } } });
/** Further held-out none-precision targets to score from the same fit (the threshold re-chosen on its grid). */
const extraTargets = (values['none-targets'] ?? '').split(',').filter(Boolean).map(Number);
const folds = writerFolds(values.writer);
for (const writer of folds.names) {
  const cases = readTopicCases(folds.casesPath(writer));
  const summarize = (label: string, weights: TopicWeightsJson | PackedTopicWeights, mode: 'learned' | 'hybrid' = 'learned') => {
    const report = runTopicEval(cases, new TopicClassifier({ weights, mode }), 1);
    // Confusions as counts only (expected→predicted), so nobody tunes on a held-out writer's sentences.
    const multiTurn = new Set(cases.filter((topicCase) => (topicCase.messages ?? []).filter((message) => message.role === 'user').length > 1).map((topicCase) => topicCase.id));
    const multiTurnMisses = report.misses.filter((miss) => multiTurn.has(miss.id)).length;
    const confusions: Record<string, number> = {};
    for (const miss of report.misses) confusions[`${miss.expected}→${miss.predicted}`] = (confusions[`${miss.expected}→${miss.predicted}`] ?? 0) + 1;
    process.stdout.write(`${JSON.stringify({ writer, model: label, cases: report.cases, accuracy: report.accuracy, strict_accuracy: report.strict_accuracy, macro_f1: report.macro_f1, none_precision: report.none_precision, none_recall: report.none_recall, min_confidence: weights.minConfidence, multi_turn_cases: multiTurn.size, multi_turn_accuracy: Math.round((1 - multiTurnMisses / Math.max(1, multiTurn.size)) * 1000) / 1000, confusions, per_topic: report.per_topic })}\n`);
  };
  if (values.before) summarize(`before (${values.before})`, readTopicWeightsFile(values.before));
  const { weights, report } = fitTopicWeights(folds.trainingWithout(writer), (example) => !example.source.startsWith('clinc150:'));
  summarize(`trained without ${writer}`, weights);
  for (const target of extraTargets) {
    const point = chooseOperatingPoint(report.grid as GridPoint[], target);
    summarize(`trained without ${writer}, none target ${target}`, { ...weights, intentWeight: point.intentWeight, minConfidence: point.minConfidence });
  }
  if (values['also-hybrid']) summarize(`trained without ${writer}, hybrid mode`, weights, 'hybrid');
}
