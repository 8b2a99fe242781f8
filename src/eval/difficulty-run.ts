import { difficultyFeatures } from '../classify/difficulty/features.js';
import { DifficultyScorer } from '../classify/difficulty/scorer.js';
import { DifficultyLinear, trainDifficultyLinear } from '../classify/difficulty/linear-stage.js';
import { trainDifficultyRouter } from '../classify/difficulty/train-router.js';
import type { DifficultyCase } from './difficulty-cases.js';
import { caseQualities, caseSubject } from './difficulty-cases.js';
import type { DifficultyMetrics } from './difficulty-metrics.js';
import { difficultyMetrics } from './difficulty-metrics.js';
import { percentileMs, timeDecisions } from './timing.js';

export interface DifficultyEvalReport {
  cases: number;
  /** `shipped`: the shipped weights scored every row; `cross-validated`: each row scored by a model trained without its fold. */
  scoring: 'shipped' | 'cross-validated';
  gsm8k?: DifficultyMetrics;
  mmlu?: DifficultyMetrics;
  mt_bench?: DifficultyMetrics;
  overall: DifficultyMetrics;
  p50_ms: number;
  p99_ms: number;
}

/** Synthetic prompts for the warm-up (written for it; not from any benchmark). */
const warmUpPrompts = [
  'hello there',
  'A farmer has 12 crates with 18 apples each and sells 3/4 of them at $0.50 each. How much does he earn?',
  'Which of the following best describes osmosis?\nA. diffusion of water\nB. active transport\nC. endocytosis\nD. none of these',
  'Write a short poem about the sea in the style of a sailor.',
];

/** Scores every case with `score` (higher = send to the strong model) and computes per-benchmark metrics. */
export function runDifficultyEval(cases: readonly DifficultyCase[], score: (prompt: string) => number, scoring: DifficultyEvalReport['scoring'] = 'shipped', precomputed?: readonly number[]): DifficultyEvalReport {
  const usable = cases.flatMap((row, index) => {
    const quality = caseQualities(row);
    return quality ? [{ row, quality, index }] : [];
  });
  // Warm on prompts of its own, then time every prompt as the median of three passes (see timeDecisions). With
  // precomputed (cross-validated) scores, `score` still runs on every prompt so the timing is real.
  for (let round = 0; round < 20; round += 1) for (const prompt of warmUpPrompts) score(prompt);
  const timed = timeDecisions(usable.map(({ row }) => row.prompt), score, 3);
  const durations = timed.medianMs;
  const scores = usable.map(({ index }, position) => (precomputed ? (precomputed[index] ?? 0) : timed.outputs[position]!));
  const metricsFor = (benchmark: string | undefined): DifficultyMetrics | undefined => {
    const selected = usable.flatMap((item, position) => (benchmark === undefined || item.row.benchmark === benchmark ? [{ score: scores[position]!, weakQuality: item.quality.weak, strongQuality: item.quality.strong }] : []));
    return selected.length ? difficultyMetrics(selected) : undefined;
  };
  const report: DifficultyEvalReport = { cases: usable.length, scoring, overall: metricsFor(undefined)!, p50_ms: percentileMs(durations, 50), p99_ms: percentileMs(durations, 99) };
  for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench'] as const) {
    const metrics = metricsFor(benchmark);
    if (metrics) report[benchmark] = metrics;
  }
  return report;
}

/**
 * Honest numbers on a file the shipped model was trained on: each row is scored by a model trained on the
 * other folds (row index mod `folds`), exactly as scripts/classifiers/train-difficulty.ts trains the shipped
 * one. The tree correction needs out-of-fold linear predictions inside each training set (nested
 * cross-validation); a linear model trained without folds f and g serves both outer fold f (for the rows of g)
 * and outer fold g (for the rows of f), so k(k−1)/2 inner fits cover all k outer folds.
 */
export function crossValidatedScores(cases: readonly DifficultyCase[], folds: number): number[] {
  const rows = cases.flatMap((row, index) => {
    const quality = caseQualities(row);
    return quality ? [{ prompt: row.prompt, subject: caseSubject(row), features: difficultyFeatures(row.prompt), quality, fold: index % folds, index }] : [];
  });
  // inner.get(`${outer}:${index}`): the row's linear probabilities from a model trained without `outer` and the row's own fold.
  const inner = new Map<string, number[]>();
  for (let first = 0; first < folds; first += 1) {
    for (let second = first + 1; second < folds; second += 1) {
      const linear = new DifficultyLinear(trainDifficultyLinear(rows.filter((row) => row.fold !== first && row.fold !== second)));
      for (const row of rows) {
        if (row.fold === first) inner.set(`${second}:${row.index}`, linear.predict(row.prompt, row.features));
        if (row.fold === second) inner.set(`${first}:${row.index}`, linear.predict(row.prompt, row.features));
      }
    }
  }
  const scores = new Array<number>(cases.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const training = rows.filter((row) => row.fold !== fold);
    const router = trainDifficultyRouter(training, { outOfFold: training.map((row) => inner.get(`${fold}:${row.index}`)!) });
    const scorer = new DifficultyScorer(router.model, router.correction, router.kindModels);
    for (const row of rows) if (row.fold === fold) scores[row.index] = scorer.score(row.prompt, row.features).probability;
  }
  return scores;
}
