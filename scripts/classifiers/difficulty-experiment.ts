// Cross-validated comparison of difficulty label choices and features (development aid, not shipped).
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { caseQualities, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { difficultyMetrics } from '../../src/eval/difficulty-metrics.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { addFeature, normalizeL2 } from '../../src/classify/text/sparse-vector.js';

const rows = readDifficultyCases(process.argv[2] || '/work/shared/corpora/external/routellm_strong_weak.jsonl');
const folds = 5;
const variant = process.argv[3] ?? 'weakfail';
const plain = (prompt: string) => { const f = new Map<string, number>(); const { words } = tokenize(prompt); for (const w of words) addFeature(f, `w:${w}`, 1); for (let i = 0; i + 1 < words.length; i++) addFeature(f, `b:${words[i]}_${words[i+1]}`, 1); return normalizeL2(f); };
const featurize = variant.startsWith('plain') ? plain : difficultyFeatures;
const features = rows.map((row) => featurize(row.prompt));
const scores = new Array<number>(rows.length).fill(0);
const epochs = Number(process.argv[4] ?? 8), l2 = Number(process.argv[5] ?? 1e-4), lr = Number(process.argv[6] ?? 0.3);
for (let fold = 0; fold < folds; fold++) {
  const train = rows.map((row, index) => ({ row, index })).filter(({ index }) => index % folds !== fold);
  const examples = train.flatMap(({ row, index }) => {
    const q = caseQualities(row)!;
    if (variant.endsWith('four')) {
      const label = q.weak >= 0.75 ? (q.strong >= 0.75 ? 0 : 3) : (q.strong >= 0.75 ? 1 : 2);
      return [{ features: features[index]!, label }];
    }
    if (variant.endsWith('gain3')) {
      const label = q.strong - q.weak > 0.05 ? 2 : q.strong - q.weak < -0.05 ? 0 : 1;
      return [{ features: features[index]!, label }];
    }
    if (variant.endsWith('gain')) return [{ features: features[index]!, label: q.strong > q.weak ? 1 : 0 }];
    return [{ features: features[index]!, label: q.weak < 0.75 ? 1 : 0 }];
  });
  const classes = variant.endsWith('four') ? ['both', 'gain', 'neither', 'loss'] : variant.endsWith('gain3') ? ['loss', 'tie', 'gain'] : ['no', 'yes'];
  const model = new LinearModel(trainLinearModel(examples, { classes, epochs, l2, learningRate: lr, minFeatureCount: 2, seed: 7 }));
  rows.forEach((row, index) => {
    if (index % folds !== fold) return;
    const p = model.predict(features[index]!).probabilities;
    scores[index] = classes.length === 4 ? (variant.startsWith('fail') ? p[1]! + p[2]! : variant.startsWith('gainonly') ? p[1]! : p[1]! - p[3]!) : classes.length === 3 ? p[2]! - p[0]! : p[1]!;
  });
}
const report: Record<string, unknown> = {};
for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench', 'overall']) {
  const subset = rows.map((row, index) => ({ row, index })).filter(({ row }) => benchmark === 'overall' || row.benchmark === benchmark);
  const m = difficultyMetrics(subset.map(({ row, index }) => { const q = caseQualities(row)!; return { score: scores[index]!, weakQuality: q.weak, strongQuality: q.strong }; }));
  report[benchmark] = `apgr ${m.apgr} cpt80 ${m.cpt80} s95 ${m.strong_share_at_95pct_quality} (rand ${m.random_strong_share_at_95pct_quality})`;
}
console.log(variant, epochs, l2, lr, JSON.stringify(report, null, 1));
