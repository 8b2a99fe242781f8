/**
 * Trains the difficulty model on the RouteLLM dev split and writes data/difficulty/weights.json plus
 * data/difficulty/cv-report.json (5-fold held-out numbers for the model and for a plain n-gram baseline).
 * Deterministic: folds are row index mod 5, training uses a fixed seed.
 *
 *   npx tsx scripts/classifiers/train-difficulty.ts [../shared/corpora/external/routellm_strong_weak.jsonl]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import type { DifficultyWeightsJson } from '../../src/classify/difficulty/model.js';
import { trainDifficultyRouter } from '../../src/classify/difficulty/train-router.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import { addFeature, normalizeL2 } from '../../src/classify/text/sparse-vector.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { caseQualities, caseSubject, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';
import { crossValidatedScores } from '../../src/eval/difficulty-run.js';

const path = process.argv[2] ?? '../shared/corpora/external/routellm_strong_weak.jsonl';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const rows = cases.map((row) => ({ prompt: row.prompt, subject: caseSubject(row), features: difficultyFeatures(row.prompt), quality: caseQualities(row)! }));

/** The baseline the issue names: word and word-pair n-grams, logistic regression on "the weak model failed". */
function baselineFeatures(prompt: string) {
  const features = new Map<string, number>();
  const { words } = tokenize(prompt);
  for (const word of words) addFeature(features, `w:${word}`, 1);
  for (let index = 0; index + 1 < words.length; index += 1) addFeature(features, `b:${words[index]}_${words[index + 1]}`, 1);
  return normalizeL2(features);
}
const baselineRows = cases.map((row) => baselineFeatures(row.prompt));

// The model's held-out scores: the same nested cross-validation as `eval difficulty --cross-validate 5`.
const modelScores = crossValidatedScores(cases, folds);
const baselineScores = new Array<number>(rows.length).fill(0);
for (let fold = 0; fold < folds; fold += 1) {
  const inTrain = (index: number) => index % folds !== fold;
  const baseline = new LinearModel(
    trainLinearModel(
      rows.flatMap((row, index) => (inTrain(index) ? [{ features: baselineRows[index]!, label: row.quality.weak < 0.75 ? 1 : 0 }] : [])),
      { classes: ['weak_right', 'weak_wrong'], epochs: 3, learningRate: 0.1, l2: 1e-3, minFeatureCount: 2, seed: 7 },
    ),
  );
  rows.forEach((row, index) => {
    if (inTrain(index)) return;
    baselineScores[index] = baseline.predict(baselineRows[index]!).probabilities[1] ?? 0;
  });
}

const report: Record<string, unknown> = {};
for (const [name, scores] of [['model', modelScores], ['baseline_ngram_logreg', baselineScores], ['constant', rows.map(() => 0)]] as const) {
  const perBenchmark: Record<string, unknown> = {};
  for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench', 'overall']) {
    const selected = rows.flatMap((row, index) => (benchmark === 'overall' || cases[index]!.benchmark === benchmark ? [{ score: scores[index]!, weakQuality: row.quality.weak, strongQuality: row.quality.strong }] : []));
    if (selected.length) perBenchmark[benchmark] = difficultyMetrics(selected);
  }
  report[name] = perBenchmark;
}

// Levels are quintiles of held-out predictions; the suggested threshold is the held-out score at which the
// strong share first reached 95% of always-strong quality.
const sortedScores = [...modelScores].sort((left, right) => left - right);
const levelCutpoints = [0.2, 0.4, 0.6, 0.8].map((quantile) => round(sortedScores[Math.floor(quantile * (sortedScores.length - 1))]!));
const overall = (report.model as Record<string, { strong_share_at_95pct_quality: number }>).overall!;
const descending = [...modelScores].sort((left, right) => right - left);
const suggestedThreshold = round(descending[Math.max(0, Math.ceil(overall.strong_share_at_95pct_quality * descending.length) - 1)]!);

const router = trainDifficultyRouter(rows, { folds });
const weights: DifficultyWeightsJson = {
  model: router.model,
  ...(router.kindModels ? { kindModels: router.kindModels } : {}),
  correction: router.correction,
  levelCutpoints,
  suggestedThreshold,
  trainedOn: { file: 'routellm_strong_weak.jsonl (RouteLLM dev split, Apache-2.0)', rows: rows.length, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') },
};
writeFileSync('data/difficulty/weights.json', `${JSON.stringify(weights)}\n`);
writeFileSync('data/difficulty/cv-report.json', `${JSON.stringify({ folds, rows: rows.length, levelCutpoints, suggestedThreshold, ...report }, null, 2)}\n`);
process.stdout.write(`${JSON.stringify({ model: (report.model as Record<string, unknown>).overall, baseline: (report.baseline_ngram_logreg as Record<string, unknown>).overall, suggestedThreshold, levelCutpoints })}\n`);

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
