/**
 * Experiment helper (not part of training): 5-fold CV of tree-correction settings over the cache written by
 * difficulty-stack-cache.ts. Each argument object overrides the boosting options and picks an input set
 * (`linear`, `linear+structure`, `+vectors`, `+oracle` — the oracle adds the test prompt's TRUE MMLU subject
 * gain, an upper bound for subject recognition that no shipped model can have).
 *   TEST_MODE=outer|average OFFSET=1|0 npx tsx scripts/classifiers/difficulty-trees-trials.ts '[{"depth":4,"minLeafWeight":50}]'
 */
import { readFileSync } from 'node:fs';
import { structureFeatureNames, structureFeatures } from '../../src/classify/difficulty/structure-features.js';
import { sentenceVector } from '../../src/classify/features/word-vectors.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { BoostedTrees } from '../../src/classify/trees/boosted-trees.js';
import type { BoostingOptions } from '../../src/classify/trees/train-boosted-trees.js';
import { trainBoostedTrees } from '../../src/classify/trees/train-boosted-trees.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';

const path = '../shared/corpora/external/routellm_strong_weak.jsonl';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const qualities = cases.map((row) => caseQualities(row)!);
const cache = JSON.parse(readFileSync(process.env.STACK_CACHE ?? '/tmp/difficulty-stack.json', 'utf8')) as { outer: number[][]; inner: Record<string, number[]> };
const structure = cases.map((row) => structureFeatureNames.map((name) => structureFeatures(row.prompt)[name]));
const vectors = cases.map((row) => {
  const meaning = sentenceVector(tokenize(row.prompt).words);
  return Array.from(meaning.vector, (value) => value * meaning.coverage);
});
const linearNames = ['p_both', 'p_strong_only', 'p_neither', 'p_weak_only', 'p_gain'];
const linearValues = (probabilities: number[]) => [...probabilities, probabilities[1]! - probabilities[3]!];

function report(scores: number[]): Record<string, number> {
  const result: Record<string, number> = {};
  for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench', 'overall']) {
    const selected = cases.flatMap((row, index) => (benchmark === 'overall' || row.benchmark === benchmark ? [{ score: scores[index]!, weakQuality: qualities[index]!.weak, strongQuality: qualities[index]!.strong }] : []));
    const metrics = difficultyMetrics(selected);
    result[`${benchmark}_apgr`] = metrics.apgr;
    result[`${benchmark}_s95`] = metrics.strong_share_at_95pct_quality;
  }
  return result;
}

type FeatureSet = string;
// Oracle experiment: the true subject's mean gain on the training folds (uses the label at test time: an upper bound, never shipped).
const domains = (readFileSync(path, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as { domain?: string; benchmark: string })).map((row) => `${row.benchmark}:${row.domain ?? ''}`);
const subjectGain: number[][] = [];
for (let fold = 0; fold < folds; fold += 1) {
  const totals = new Map<string, [number, number]>();
  cases.forEach((_, index) => {
    if (index % folds === fold) return;
    const entry = totals.get(domains[index]!) ?? [0, 0];
    entry[0] += qualities[index]!.strong - qualities[index]!.weak;
    entry[1] += 1;
    totals.set(domains[index]!, entry);
  });
  subjectGain.push(cases.map((_, index) => {
    const entry = totals.get(domains[index]!) ?? [0, 0];
    return (entry[0] + 0.13 * 10) / (entry[1] + 10);
  }));
}
let currentFold = 0;
function inputs(index: number, probabilities: number[], set: FeatureSet): number[] {
  const values: number[] = [];
  if (set.includes('linear')) values.push(...linearValues(probabilities));
  if (set.includes('structure')) values.push(...structure[index]!);
  if (set.includes('vectors')) values.push(...vectors[index]!);
  if (set.includes('oracle')) values.push(subjectGain[currentFold]![index]!);
  return values;
}
function names(set: FeatureSet): string[] {
  const list: string[] = [];
  if (set.includes('linear')) list.push(...linearNames);
  if (set.includes('structure')) list.push(...structureFeatureNames);
  if (set.includes('vectors')) list.push(...Array.from({ length: 64 }, (_, index) => `v:${index}`));
  if (set.includes('oracle')) list.push('oracle_subject_gain');
  return list;
}

const useOffset = process.env.OFFSET !== '0';
const testMode = process.env.TEST_MODE ?? 'outer';
function testProbabilities(index: number): number[] {
  if (testMode === 'outer') return cache.outer[index]!;
  const fold = index % folds;
  const others = [0, 1, 2, 3, 4].filter((other) => other !== fold).map((other) => cache.inner[`${other}:${index}`]!);
  return others[0]!.map((_, position) => others.reduce((sum, list) => sum + list[position]!, 0) / others.length);
}
function crossValidate(set: FeatureSet, options: BoostingOptions): number[] {
  const scores = new Array<number>(cases.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    currentFold = fold;
    const gainOf = (probabilities: number[]) => probabilities[1]! - probabilities[3]!;
    const trainIndices = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
    // Least-squares scale of the linear score against the observed gain (through the origin after centring).
    const xs = trainIndices.map((index) => gainOf(cache.inner[`${fold}:${index}`]!));
    const ys = trainIndices.map((index) => qualities[index]!.strong - qualities[index]!.weak);
    const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
    const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
    const scale = useOffset ? xs.reduce((sum, x, position) => sum + (x - meanX) * (ys[position]! - meanY), 0) / xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0) : 0;
    const training = trainIndices.map((index, position) => ({ values: inputs(index, cache.inner[`${fold}:${index}`]!, set), target: ys[position]!, offset: scale * xs[position]! }));
    const model = new BoostedTrees(trainBoostedTrees(training, names(set), options));
    if (fold === 0) process.stderr.write(`scale ${scale}\n`);
    cases.forEach((_, index) => {
      if (index % folds === fold) scores[index] = model.predict(inputs(index, testProbabilities(index), set)) + scale * gainOf(testProbabilities(index));
    });
  }
  return scores;
}

console.log(JSON.stringify({ name: 'linear alone', ...report(cache.outer.map((p) => p[1]! - p[3]!)) }));
const defaults: BoostingOptions = { trees: 200, depth: 3, learningRate: 0.05, minLeafWeight: 50, l2: 10, bins: 32, subsample: 0.8, seed: 7 };
const grid = JSON.parse(process.argv[2] ?? '[{}]') as (Partial<BoostingOptions> & { set?: FeatureSet })[];
for (const trial of grid) {
  const { set = 'linear+structure', ...rest } = trial;
  const options = { ...defaults, ...rest };
  const started = Date.now();
  console.log(JSON.stringify({ set, ...rest, ...report(crossValidate(set, options)), seconds: (Date.now() - started) / 1000 }));
}
