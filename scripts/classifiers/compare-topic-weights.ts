/**
 * Scores one or more topic weights files on the topic case files, side by side (accuracy, none precision and
 * recall, p99_ms as `eval topics` measures it), so a retrained model can be compared with the one it replaces
 * on the same sets without swapping data/topics/weights.json.
 *
 *   npx tsx scripts/classifiers/compare-topic-weights.ts --weights OLD.json --weights data/topics/weights.json data/topics/cases.dev.jsonl …
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import type { TopicWeightsJson } from '../../src/classify/topic/model.js';
import { readTopicCases } from '../../src/eval/topic-cases.js';
import { runTopicEval } from '../../src/eval/topics-run.js';

const { values, positionals } = parseArgs({ options: { weights: { type: 'string', multiple: true } }, allowPositionals: true });
for (const weightsPath of values.weights ?? ['data/topics/weights.json']) {
  const classifier = new TopicClassifier({ weights: JSON.parse(readFileSync(weightsPath, 'utf8')) as TopicWeightsJson });
  for (const casesPath of positionals) {
    const report = runTopicEval(readTopicCases(casesPath), classifier);
    process.stdout.write(`${JSON.stringify({ weights: weightsPath, cases: casesPath, n: report.cases, accuracy: report.accuracy, strict_accuracy: report.strict_accuracy, none_precision: report.none_precision, none_recall: report.none_recall, p99_ms: report.p99_ms })}\n`);
  }
}
