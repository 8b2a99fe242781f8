/**
 * Trains the topic classifier on the hand-written examples in data/topics/train/ and the writers' cases in
 * data/topics/train-writers/ (see its README), and writes
 * data/topics/weights.bin (packed, src/classify/topic/packed-weights.ts) and data/topics/cv-report.json. Calibration (temperature), the weight of the
 * intent prior and the `none` threshold are chosen on 5-fold held-out predictions of the training data; the dev
 * set (data/topics/cases.dev.jsonl) is never read here.
 *
 *   npx tsx scripts/classifiers/train-topics.ts
 */
import { existsSync, writeFileSync } from 'node:fs';
import { encodeTopicWeights } from '../../src/classify/topic/packed-weights.js';
import { readTopicTrainingData, readWriterTrainingData } from '../../src/classify/topic/training-data.js';
import { clincNoneExamples } from './clinc-none-examples.js';
import { fitTopicWeights } from './topic-fit.js';

const clincPath = process.argv[2] ?? '../shared/corpora/external/clinc150_domains.jsonl';
const written = [...readTopicTrainingData('data/topics/train'), ...readWriterTrainingData('data/topics/train-writers')];
const borrowed = existsSync(clincPath) ? clincNoneExamples(clincPath) : [];
// Borrowed rows train every fold but are never scored: the held-out numbers speak for the written data.
const { weights, report } = fitTopicWeights([...written, ...borrowed], (example) => !example.source.startsWith('clinc150:'));
writeFileSync('data/topics/weights.bin', encodeTopicWeights(weights));
writeFileSync('data/topics/cv-report.json', `${JSON.stringify(report, null, 1)}\n`);
process.stdout.write(`${JSON.stringify({ examples: report.examples, topicTemperature: report.topicTemperature, intentTemperature: report.intentTemperature, chosen: report.chosen })}\n`);
