/**
 * Experiment helper (not part of training): how held-out APGR of the linear difficulty stage grows with the
 * amount of training data, by 5-fold CV on the dev split with each training set cut to a share of its rows
 * (the same rows for every share's prefix, after a seeded shuffle). The slope says whether more outcome rows of
 * the same kind would move the gate, or whether the words have given what they carry.
 *
 *   npx tsx scripts/classifiers/difficulty-learning-curve.ts [CASES] [0.25,0.5,0.75,1]
 */
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { linearGain } from '../../src/classify/difficulty/correction-inputs.js';
import { DifficultyLinear, trainDifficultyLinear } from '../../src/classify/difficulty/linear-stage.js';
import { seededRandom, shuffleInPlace } from '../../src/classify/text/random.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';

const path = process.argv[2] ?? '../shared/corpora/external/routellm_strong_weak.jsonl';
const shares = (process.argv[3] ?? '0.25,0.5,0.75,1').split(',').map(Number);
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const rows = cases.map((row) => ({ benchmark: row.benchmark, prompt: row.prompt, features: difficultyFeatures(row.prompt), quality: caseQualities(row)! }));

for (const share of shares) {
  const scores = new Array<number>(rows.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const training = rows.filter((_, index) => index % folds !== fold);
    shuffleInPlace(training, seededRandom(11 + fold));
    const linear = new DifficultyLinear(trainDifficultyLinear(training.slice(0, Math.round(share * training.length))));
    rows.forEach((row, index) => {
      if (index % folds === fold) scores[index] = linearGain(linear.predict(row.prompt, row.features));
    });
  }
  const result: Record<string, number> = { share, training_rows: Math.round((share * rows.length * (folds - 1)) / folds) };
  for (const benchmark of ['gsm8k', 'mmlu', 'overall']) {
    const metrics = difficultyMetrics(rows.flatMap((row, index) => (benchmark === 'overall' || row.benchmark === benchmark ? [{ score: scores[index]!, weakQuality: row.quality.weak, strongQuality: row.quality.strong }] : [])));
    result[`${benchmark}_apgr`] = metrics.apgr;
    result[`${benchmark}_share95`] = metrics.strong_share_at_95pct_quality;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
