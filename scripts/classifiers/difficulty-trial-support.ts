/**
 * What the difficulty experiment scripts share: the per-benchmark report of a score column, and IDF-weighted word
 * vectors fitted on a fold's training rows (the neighbour and the subject-recognition trials both compare prompts
 * by them).
 */
import type { DifficultyCase } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';

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
