/**
 * What the difficulty experiment scripts share: the per-benchmark report of a score column, IDF-weighted word
 * vectors fitted on a fold's training rows (the neighbour and the subject-recognition trials both compare prompts
 * by them), one fold's tree correction over the cached linear outputs, and the mean over tree seeds they print.
 */
import { linearGain } from '../../src/classify/difficulty/correction-inputs.js';
import { correctionBoostingOptions } from '../../src/classify/difficulty/train-router.js';
import { BoostedTrees } from '../../src/classify/trees/boosted-trees.js';
import { trainBoostedTrees } from '../../src/classify/trees/train-boosted-trees.js';
import type { DifficultyCase } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';

/** The linear stage's cached outputs (difficulty-stack-cache.ts): per row out of fold, and per `fold:row` inside it. */
export interface StackCache {
  outer: number[][];
  inner: Record<string, number[]>;
}

/**
 * One fold's tree correction, as the shipped router fits it: the linear gain scaled to the training gains by least
 * squares is the trees' offset, and the trees learn the rest from `inputs` (a training row's inputs by its index,
 * its inner-fold linear outputs and its position in `trainIndices`).
 */
export function fitFoldCorrection(options: {
  cache: StackCache;
  fold: number;
  trainIndices: readonly number[];
  gains: readonly number[];
  names: readonly string[];
  seed: number;
  inputs: (index: number, probabilities: number[], position: number) => number[];
}): { model: BoostedTrees; scale: number } {
  const { cache, fold, trainIndices, gains } = options;
  const xs = trainIndices.map((index) => linearGain(cache.inner[`${fold}:${index}`]!));
  const ys = trainIndices.map((index) => gains[index]!);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  const scale = xs.reduce((sum, x, position) => sum + (x - meanX) * (ys[position]! - meanY), 0) / xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  const training = trainIndices.map((index, position) => ({ values: options.inputs(index, cache.inner[`${fold}:${index}`]!, position), target: ys[position]!, offset: scale * xs[position]! }));
  return { model: new BoostedTrees(trainBoostedTrees(training, [...options.names], { ...correctionBoostingOptions, seed: options.seed })), scale };
}

/** For each input set named on the command line, the report's mean over the tree seeds in SEEDS (default 7,8,9), one JSON line. */
export function printSeedMeans(sets: readonly string[], crossValidate: (set: string, seed: number) => number[], report: (scores: number[]) => Record<string, number>): void {
  const seeds = (process.env.SEEDS ?? '7,8,9').split(',').map(Number);
  for (const set of sets) {
    const reports = seeds.map((seed) => report(crossValidate(set, seed)));
    const mean: Record<string, number> = {};
    for (const key of Object.keys(reports[0]!)) mean[key] = Math.round((reports.reduce((sum, item) => sum + item[key]!, 0) / reports.length) * 1e4) / 1e4;
    console.log(JSON.stringify({ set, seeds, mean, perSeed: reports.map((item) => [item.overall_apgr, item.overall_s95, item.gsm8k_apgr, item.mmlu_apgr]) }));
  }
}

/** APGR and strong share at 95% quality per benchmark and overall, rounded to four places. */
export function benchmarkReport(cases: readonly DifficultyCase[], scores: readonly number[], qualities: readonly { weak: number; strong: number }[]): Record<string, number> {
  const result: Record<string, number> = {};
  for (const benchmark of ['overall', 'gsm8k', 'mmlu', 'mt_bench']) {
    const selected = cases.flatMap((row, index) => (benchmark === 'overall' || row.benchmark === benchmark ? [{ score: scores[index]!, weakQuality: qualities[index]!.weak, strongQuality: qualities[index]!.strong }] : []));
    const metrics = difficultyMetrics(selected);
    result[`${benchmark}_apgr`] = Math.round(metrics.apgr * 1e4) / 1e4;
    result[`${benchmark}_s95`] = Math.round(metrics.strong_share_at_95pct_quality * 1e4) / 1e4;
  }
  return result;
}

export interface IdfVectors {
  /** In how many training rows each word occurs. */
  documentFrequency: Map<string, number>;
  /** Row `index`'s words (of two letters or more, and in at least `minimumRows` training rows) as a unit vector of (1 + log count) × IDF. */
  vectorOf(index: number, minimumRows?: number): Map<string, number>;
}

/** IDF fitted on the `training` rows of `words` (one word list per row); any row can then be vectorised. */
export function idfVectors(words: readonly (readonly string[])[], training: readonly number[]): IdfVectors {
  const documentFrequency = new Map<string, number>();
  for (const index of training) for (const word of new Set(words[index])) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const idf = (word: string) => Math.log((training.length + 1) / ((documentFrequency.get(word) ?? 0) + 1));
  const vectorOf = (index: number, minimumRows = 0) => {
    const counts = new Map<string, number>();
    for (const word of words[index]!) if (word.length >= 2 && (documentFrequency.get(word) ?? 0) >= minimumRows) counts.set(word, (counts.get(word) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [word, count] of counts) {
      const value = (1 + Math.log(count)) * idf(word);
      vector.set(word, value);
      norm += value * value;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [word, value] of vector) vector.set(word, value / norm);
    return vector;
  };
  return { documentFrequency, vectorOf };
}
