/**
 * Experiment helper (not part of training): how the shipped route model's calibrated rejection behaves across
 * numbers of examples per route and draws of those examples, for several `targetRejection` values. CLINC150
 * dev split; each draw is the evenly spaced pick shifted by a fraction of its step.
 *
 *   SIZES=10,30,100 DRAWS=3 TARGETS=0.55,0.6 npx tsx scripts/classifiers/routes-calibration-trials.ts
 */
import { RouteClassifier } from '../../src/classify/routes/route-classifier.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';

const rows = readRouteRows('../shared/corpora/external/clinc150_domains.jsonl');
const domains = [...new Set(rows.filter((row) => row.split === 'train' && row.domain).map((row) => row.domain!))].sort();
const negatives = rows.filter((row) => row.split === 'oos_train').map((row) => row.text);
const scored = rows.filter((row) => row.split !== 'train' && row.split !== 'oos_train');
function pick<T>(items: readonly T[], count: number, draw: number, draws: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step + (draw * step) / draws)]!);
}
const draws = Number(process.env.DRAWS ?? 3);
const targets = (process.env.TARGETS ?? '0.55').split(',').map(Number);
for (const size of (process.env.SIZES ?? '10,30,100').split(',').map((value) => (value === 'all' ? 100_000 : Number(value)))) {
  for (const targetRejection of targets) {
    const results: { accuracy: number; rejection: number; threshold: number }[] = [];
    for (let draw = 0; draw < (size >= 1500 ? 1 : draws); draw += 1) {
      const definitions = domains.map((name) => ({ name, utterances: pick(rows.filter((row) => row.split === 'train' && row.domain === name).map((row) => row.text), size, draw, draws) }));
      const classifier = new RouteClassifier(definitions, { negatives, targetRejection });
      let inScope = 0;
      let right = 0;
      let outOfScope = 0;
      let rejected = 0;
      for (const row of scored) {
        const match = classifier.match(row.text);
        if (row.domain) {
          inScope += 1;
          if (match.route === row.domain) right += 1;
        } else {
          outOfScope += 1;
          if (match.route === undefined) rejected += 1;
        }
      }
      results.push({ accuracy: right / inScope, rejection: rejected / outOfScope, threshold: classifier.threshold });
    }
    const mean = (key: 'accuracy' | 'rejection') => (results.reduce((sum, item) => sum + item[key], 0) / results.length).toFixed(4);
    console.log(`${String(size).padStart(6)} target ${targetRejection} accuracy ${mean('accuracy')} rejection ${mean('rejection')} per draw ${results.map((item) => `${item.accuracy.toFixed(3)}/${item.rejection.toFixed(2)}@${item.threshold}`).join(' ')}`);
  }
}
