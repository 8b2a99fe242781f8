/**
 * Experiment helper for the difficulty tree correction (not part of training): caches the nested out-of-fold
 * linear-model outputs (the k(k-1)/2 pair models of src/eval/difficulty-run.ts, plus the k outer models) so that
 * difficulty-trees-trials.ts can try tree settings in seconds each, all by 5-fold CV on the dev split.
 *
 *   npx tsx scripts/classifiers/difficulty-stack-cache.ts [CASES] [/tmp/difficulty-stack.json]
 */
import { writeFileSync } from 'node:fs';
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { DifficultyLinear, trainDifficultyLinear } from '../../src/classify/difficulty/linear-stage.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';

const path = process.argv[2] ?? '../shared/corpora/external/routellm_strong_weak.jsonl';
const out = process.argv[3] ?? '/tmp/difficulty-stack.json';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const rows = cases.map((row) => ({ prompt: row.prompt, features: difficultyFeatures(row.prompt), quality: caseQualities(row)! }));
// pair[f][g] (f ≠ g): probabilities for fold-g rows from a model trained without folds f and g; outer[f]: fold f from a model without f.
const inner: Record<string, number[]> = {};
const outer: number[][] = new Array(rows.length);
for (let f = 0; f < folds; f += 1) {
  for (let g = f; g < folds; g += 1) {
    const excluded = new Set([f, g]);
    const linear = new DifficultyLinear(trainDifficultyLinear(rows.filter((_, index) => !excluded.has(index % folds))));
    rows.forEach((row, index) => {
      const fold = index % folds;
      if (!excluded.has(fold)) return;
      const probabilities = linear.predict(row.prompt, row.features).map((value) => Math.round(value * 1e5) / 1e5);
      // Outer model for f === g; otherwise the inner out-of-fold output of this row for outer fold "the other one".
      if (f === g) outer[index] = probabilities;
      else inner[`${fold === f ? g : f}:${index}`] = probabilities;
    });
    process.stderr.write(`fit ${f},${g}\n`);
  }
}
writeFileSync(out, JSON.stringify({ outer, inner }));
