/**
 * Scores writers' files that training has not seen (for example new writers' files before they are added to
 * data/topics/train-writers/) with the full recipe fitted on everything in data/topics (topic-fit.ts), by the
 * script of the classified turn. One fit, so a feature change can be checked on writers that did not choose it.
 *
 * `--exclude writer-18,writer-19` leaves those writers of data/topics/train-writers out of training (files added
 * since the model being compared was trained).
 *
 *   npx tsx scripts/classifiers/topic-new-writers-check.ts [--exclude writer-18] /path/writer-18.topics.jsonl [...more files]
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { readTopicTrainingData, readWriterTrainingData } from '../../src/classify/topic/training-data.js';
import { readTopicCases } from '../../src/eval/topic-cases.js';
import { runTopicEval } from '../../src/eval/topics-run.js';
import { clincNoneExamples } from './clinc-none-examples.js';
import { fitTopicWeights } from './topic-fit.js';

const { values, positionals } = parseArgs({ options: { exclude: { type: 'string' } }, allowPositionals: true });
const excluded = new Set((values.exclude ?? '').split(',').filter(Boolean));
const clincPath = '../shared/corpora/external/clinc150_domains.jsonl';
const training = [...readTopicTrainingData('data/topics/train'), ...readWriterTrainingData('data/topics/train-writers').filter((example) => !excluded.has(example.writer!)), ...(existsSync(clincPath) ? clincNoneExamples(clincPath) : [])];
const { weights } = fitTopicWeights(training, (example) => !example.source.startsWith('clinc150:'));
const classifier = new TopicClassifier({ weights });
let right = 0;
let total = 0;
for (const path of positionals) {
  const cases = readTopicCases(path);
  const report = runTopicEval(cases, classifier, 1);
  right += report.accuracy * report.cases;
  total += report.cases;
  process.stdout.write(`${JSON.stringify({ file: basename(path), cases: report.cases, accuracy: report.accuracy, none_precision: report.none_precision, none_recall: report.none_recall, min_confidence: weights.minConfidence })}\n`);
}
process.stdout.write(`pooled accuracy ${(right / total).toFixed(4)} over ${total}\n`);
