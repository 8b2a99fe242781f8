/**
 * Experiment helper (not part of training): is one linear model per kind of prompt better than one for all?
 * 5-fold CV on the dev split. `benchmark` picks each row's model by its true benchmark (an upper bound);
 * `shape` by what the prompt looks like (multiple-choice options or not: known at inference), one model for
 * multiple-choice prompts and one for all others; `numeric` also splits off multiple-choice questions with
 * numeric options. The shared model is trained on all rows.
 *
 *   npx tsx scripts/classifiers/difficulty-per-benchmark.ts [CASES] [benchmark|shape|numeric]
 */
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { linearGain } from '../../src/classify/difficulty/correction-inputs.js';
import { trainDifficultyModel } from '../../src/classify/difficulty/train.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';

const path = process.argv[2] ?? '../shared/corpora/external/routellm_strong_weak.jsonl';
const mode = process.argv[3] ?? 'benchmark';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const shapeOf = (prompt: string): string => {
  const options = prompt.match(/^[A-D][.)]\s.*$/gm) ?? [];
  if (options.length < 2) return 'other';
  // `numeric`: multiple-choice questions whose options are numbers (calculations) apart from the others.
  return mode === 'numeric' && options.filter((option) => /\d/.test(option.slice(2))).length >= 2 ? 'choice-numeric' : 'choice';
};
const rows = cases.map((row) => ({ benchmark: row.benchmark, group: mode === 'benchmark' ? row.benchmark : shapeOf(row.prompt), features: difficultyFeatures(row.prompt), quality: caseQualities(row)! }));
const groups = mode === 'benchmark' ? ['gsm8k', 'mmlu'] : ['choice', 'choice-numeric', 'other'];
const shared = new Array<number>(rows.length).fill(0);
const own = new Array<number>(rows.length).fill(0);
for (let fold = 0; fold < folds; fold += 1) {
  const training = rows.filter((_, index) => index % folds !== fold);
  const sharedModel = new LinearModel(trainDifficultyModel(training));
  const ownModels = new Map(groups.map((group) => [group, new LinearModel(trainDifficultyModel(training.filter((row) => row.group === group)))]));
  rows.forEach((row, index) => {
    if (index % folds !== fold) return;
    shared[index] = linearGain(sharedModel.predict(row.features).probabilities);
    own[index] = linearGain((ownModels.get(row.group) ?? sharedModel).predict(row.features).probabilities);
  });
  process.stderr.write(`fold ${fold}\n`);
}
for (const [name, scores] of [['shared', shared], [`per-${mode}`, own]] as const) {
  const result: Record<string, number | string> = { name };
  for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench', 'overall']) {
    const metrics = difficultyMetrics(rows.flatMap((row, index) => (benchmark === 'overall' || row.benchmark === benchmark ? [{ score: scores[index]!, weakQuality: row.quality.weak, strongQuality: row.quality.strong }] : [])));
    result[`${benchmark}_apgr`] = metrics.apgr;
    result[`${benchmark}_share95`] = metrics.strong_share_at_95pct_quality;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
