/**
 * Experiment helper (not part of training): the nested out-of-fold cache of difficulty-stack-cache.ts for a
 * variant of the linear stage, and the variant's linear-alone 5-fold metrics (ranking by P(strong only) −
 * P(weak only)), so a linear-stage change can be judged alone and through the trees
 * (difficulty-subject-option-trials.ts reads the cache).
 *   `kinds`:     the shipped stage (one model for multiple-choice prompts, one for the rest);
 *   `augmented`: one model over all rows whose every feature also appears prefixed with the prompt's kind
 *                (feature augmentation for domain adaptation: shared weights where the kinds agree, kind weights
 *                where they differ);
 *   `bagged3`:   the shipped stage trained with three shuffle seeds (7, 8, 9), outcome probabilities averaged
 *                (three times the weights);
 *   `coverage`:  the shipped stage, and after the four probabilities how much of the prompt the model knows:
 *                share and count of its word and word-pair features that have weights, and the summed evidence
 *                for and against "only strong right" over "only weak right" (read as extra tree inputs by
 *                difficulty-subject-option-trials.ts `coverage`).
 *   npx tsx scripts/classifiers/difficulty-linear-variant-cache.ts augmented /tmp/difficulty-stack-augmented.json
 */
import { writeFileSync } from 'node:fs';
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { DifficultyLinear, trainDifficultyLinear } from '../../src/classify/difficulty/linear-stage.js';
import { promptKind } from '../../src/classify/difficulty/prompt-kind.js';
import { difficultyTrainingOptions, trainDifficultyModel } from '../../src/classify/difficulty/train.js';
import { outcomeClasses, outcomeOf } from '../../src/classify/difficulty/model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import type { SparseVector } from '../../src/classify/text/sparse-vector.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { benchmarkReport } from './difficulty-trial-support.js';

const variant = process.argv[2] ?? 'kinds';
const out = process.argv[3];
const path = '../shared/corpora/external/routellm_strong_weak.jsonl';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const rows = cases.map((row) => ({ prompt: row.prompt, features: difficultyFeatures(row.prompt), quality: caseQualities(row)! }));

function augment(prompt: string, features: SparseVector): SparseVector {
  const kind = promptKind(prompt);
  const result: SparseVector = new Map(features);
  for (const [name, value] of features) result.set(`${kind}|${name}`, value);
  return result;
}
const augmentedFeatures = variant === 'augmented' ? rows.map((row) => augment(row.prompt, row.features)) : [];

function fit(training: number[]): (index: number) => number[] {
  if (variant === 'augmented') {
    const model = new LinearModel(trainDifficultyModel(training.map((index) => ({ features: augmentedFeatures[index]!, quality: rows[index]!.quality }))));
    return (index) => model.predict(augmentedFeatures[index]!).probabilities;
  }
  if (variant === 'bagged3') {
    // Per kind as the shipped stage, three shuffle seeds each.
    const models = [7, 8, 9].map((seed) => {
      const byKind = new Map<string, LinearModel>();
      for (const kind of ['choice', 'other']) {
        const kindRows = training.filter((index) => promptKind(rows[index]!.prompt) === kind);
        byKind.set(kind, new LinearModel(trainLinearModel(kindRows.map((index) => ({ features: rows[index]!.features, label: outcomeClasses.indexOf(outcomeOf(rows[index]!.quality)) })), { classes: [...outcomeClasses], ...difficultyTrainingOptions, seed })));
      }
      return byKind;
    });
    return (index) => {
      const sum = [0, 0, 0, 0];
      for (const byKind of models) byKind.get(promptKind(rows[index]!.prompt))!.predict(rows[index]!.features).probabilities.forEach((value, position) => (sum[position]! += value / models.length));
      return sum;
    };
  }
  const json = trainDifficultyLinear(training.map((index) => rows[index]!));
  const linear = new DifficultyLinear(json);
  if (variant === 'coverage') {
    const weightsOf = (prompt: string) => new Map(Object.entries((json.kindModels?.[promptKind(prompt)] ?? json.model).weights));
    const tables = { choice: json.kindModels?.choice ? new Map(Object.entries(json.kindModels.choice.weights)) : undefined, other: new Map(Object.entries(json.model.weights)) };
    return (index) => {
      const row = rows[index]!;
      const weights = tables[promptKind(row.prompt)] ?? weightsOf(row.prompt);
      let words = 0;
      let known = 0;
      let forStrong = 0;
      let forWeak = 0;
      for (const [name, value] of row.features) {
        if (!name.startsWith('w:') && !name.startsWith('b:')) continue;
        words += 1;
        const weight = weights.get(name);
        if (!weight) continue;
        known += 1;
        const evidence = value * ((weight[1] ?? 0) - (weight[3] ?? 0));
        if (evidence > 0) forStrong += evidence;
        else forWeak -= evidence;
      }
      return [...linear.predict(row.prompt, row.features), known / Math.max(1, words), known, forStrong, forWeak];
    };
  }
  return (index) => linear.predict(rows[index]!.prompt, rows[index]!.features);
}

const inner: Record<string, number[]> = {};
const outer: number[][] = new Array(rows.length);
const round = (values: number[]) => values.map((value) => Math.round(value * 1e5) / 1e5);
for (let f = 0; f < folds; f += 1) {
  for (let g = f; g < folds; g += 1) {
    if (!out && f !== g) continue;
    const excluded = new Set([f, g]);
    const predict = fit(rows.flatMap((_, index) => (excluded.has(index % folds) ? [] : [index])));
    rows.forEach((_, index) => {
      const fold = index % folds;
      if (!excluded.has(fold)) return;
      if (f === g) outer[index] = round(predict(index));
      else inner[`${fold === f ? g : f}:${index}`] = round(predict(index));
    });
    process.stderr.write(`fit ${f},${g}\n`);
  }
}
const result = benchmarkReport(
  cases,
  outer.map((estimates) => estimates[1]! - estimates[3]!),
  rows.map((row) => row.quality),
);
console.log(JSON.stringify({ variant, linearAlone: result }));
if (out) writeFileSync(out, JSON.stringify({ outer, inner }));
