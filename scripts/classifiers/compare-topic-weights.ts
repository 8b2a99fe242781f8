/**
 * Scores one or more topic weights files on the topic case files, side by side (accuracy, none precision and
 * recall, p99_ms as `eval topics` measures it), so a retrained model can be compared with the one it replaces
 * on the same sets without swapping data/topics/weights.bin (packed `.bin` or older `.json` files).
 *
 *   npx tsx scripts/classifiers/compare-topic-weights.ts --weights OLD.bin --weights data/topics/weights.bin data/topics/cases.dev.jsonl …
 */
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { readTopicWeightsFile } from '../../src/classify/topic/packed-weights.js';
import { readTopicCases } from '../../src/eval/topic-cases.js';
import { runTopicEval } from '../../src/eval/topics-run.js';

const { values, positionals } = parseArgs({ options: { weights: { type: 'string', multiple: true } }, allowPositionals: true });
for (const weightsPath of values.weights ?? ['data/topics/weights.bin']) {
  const classifier = new TopicClassifier({ weights: readTopicWeightsFile(weightsPath) });
  for (const casesPath of positionals) {
    const report = runTopicEval(readTopicCases(casesPath), classifier);
    process.stdout.write(`${JSON.stringify({ weights: weightsPath, cases: casesPath, n: report.cases, accuracy: report.accuracy, strict_accuracy: report.strict_accuracy, none_precision: report.none_precision, none_recall: report.none_recall, p99_ms: report.p99_ms })}\n`);
  }
}
