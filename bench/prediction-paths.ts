/**
 * What the toolset model's two remembered paths save, each against the path it replaced, in one process over the same
 * texts (the machines are shared and noisy, so only the ratios are worth comparing across runs):
 * - features: `toolsetFeatures` (each token's buckets remembered) against hashing every feature name
 *   (`hashFeatures(toolsetFeatureNames(...))`, the definition it must equal);
 * - rows: predictions of the model, its rows remembered, against the same rows found by binary search on every
 *   prediction (what it did before; a model wider than 2^22 buckets still does, so the baseline is the same weights
 *   declared 23 bits wide).
 * Both feature paths are given the same tokens (`frameTokens` once per text), so the ratio is of what changed.
 * Texts: each first turn of the blind sets in data/heldout-blind and its overlapping six-word windows, as a decision
 * reads them (window-need.ts).
 *
 *   node --import tsx bench/prediction-paths.ts [--rounds 5] [--messages 20000]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hashFeatures } from '../src/classify/features/text-features.js';
import { frameTokens, instructionText } from '../src/classify/features/scopes.js';
import { MultilabelModel } from '../src/classify/linear/multilabel-model.js';
import { openPackedModel } from '../src/classify/linear/packed-model-file.js';
import { packageRoot, toolsetModelRelativePath } from '../src/classify/toolsets/model-file.js';
import { toolsetFeatureNames, toolsetFeatures } from '../src/classify/toolsets/toolset-features.js';
import { instructionWords, wordWindows } from '../src/classify/toolsets/window-need.js';
import { loadWordClusters } from '../src/classify/toolsets/word-clusters.js';
import { caseMessages, readToolCases } from '../src/eval/tools/tool-cases.js';
import { percentile } from './support.js';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, messages: { type: 'string', default: '20000' } } });
const rounds = Number(flags.rounds);
const blind = join(packageRoot(), 'data', 'heldout-blind');
const messages = readdirSync(blind)
  .filter((name) => /^tools-set\d+\.jsonl$/.test(name))
  .flatMap((name) => readToolCases(join(blind, name)))
  .map((toolCase) => caseMessages(toolCase))
  .filter((turns) => turns.every((message) => message.role !== 'assistant'))
  .map((turns) => turns.at(-1)!.text)
  .slice(0, Number(flags.messages));
const texts = messages.flatMap((text) => [text, ...wordWindows(instructionWords(instructionText(text)), 6).slice(1)]);
const clusters = loadWordClusters();
const packed = openPackedModel(join(packageRoot(), toolsetModelRelativePath));
const bits = packed.featureBits;
const tokens = texts.map((text) => frameTokens(text));
const features = texts.map((text, index) => toolsetFeatures(text, false, bits, tokens[index], clusters));

/** Milliseconds per round of `work` over every text. */
function time(work: () => void): number {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const timings: Record<string, number[]> = { 'feature names hashed': [], 'token buckets remembered': [], 'rows searched': [], 'rows remembered': [] };
const remembering = new MultilabelModel(packed);
const searching = new MultilabelModel({ ...packed, featureBits: 23 });
for (const vector of features) if (remembering.predict(vector).some((probability, label) => probability !== searching.predict(vector)[label])) throw new Error('the two row paths disagree');
for (let round = 0; round < rounds; round += 1) {
  // Alternate which path goes first, so drift in the machine's load hits both alike.
  const featurePaths: [string, () => void][] = [
    ['feature names hashed', () => texts.forEach((text, index) => hashFeatures(toolsetFeatureNames(text, false, tokens[index], clusters), bits))],
    ['token buckets remembered', () => texts.forEach((text, index) => toolsetFeatures(text, false, bits, tokens[index], clusters))],
  ];
  const rowPaths: [string, () => void][] = [
    ['rows searched', () => features.forEach((vector) => searching.predict(vector))],
    ['rows remembered', () => features.forEach((vector) => remembering.predict(vector))],
  ];
  for (const paths of [featurePaths, rowPaths]) for (const [name, work] of round % 2 === 0 ? paths : [...paths].reverse()) timings[name]!.push(time(work));
}
console.log(`${messages.length} first turns, ${texts.length} texts (messages and their windows) × ${rounds} rounds; ms per round (median, min)`);
const median = (name: string): number => percentile([...timings[name]!].sort((a, b) => a - b), 0.5);
for (const name of Object.keys(timings)) console.log(`${name.padEnd(30)} ${median(name).toFixed(1)} ms  (min ${Math.min(...timings[name]!).toFixed(1)})`);
console.log(`ratio token buckets remembered / feature names hashed: ${(median('token buckets remembered') / median('feature names hashed')).toFixed(2)}×`);
console.log(`ratio rows remembered / rows searched: ${(median('rows remembered') / median('rows searched')).toFixed(2)}×`);
