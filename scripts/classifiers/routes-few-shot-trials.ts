/**
 * Experiment helper (not part of training): feature variants of the route model at few examples per route, on
 * CLINC150's dev split, each judged over several draws of the examples (the evenly spaced pick shifted by a
 * fraction of its step; one draw of ten examples is a noisy measurement) by route accuracy at the threshold
 * rejecting 80% of oos_val (an oracle threshold, to compare separations) and top-1 accuracy without rejection.
 * Variants apply on top of the shipped `utteranceFeatures` (since the change they measured: `v:` weight 2 and
 * the salient meaning `m:`; `vectorScale` multiplies the shipped `v:`, `maxPool` replaces `m:` by a scaled one).
 * `softMatch` (per route, each request word's best cosine with the route's words; tried, not kept: 10 / 30
 * examples 0.577 / 0.766 → 0.585 / 0.759 at scale 3, 0.581 / 0.766 at 1, for a cost growing with the examples).
 *
 *   SIZES=10,30 DRAWS=3 VARIANTS='{"shipped":{},"vectors x2":{"vectorScale":2}}' npx tsx scripts/classifiers/routes-few-shot-trials.ts
 */
import { wordVectorTable } from '../../src/classify/features/word-vectors.js';
import { salientMeaning, utteranceFeatures } from '../../src/classify/routes/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import type { SparseVector } from '../../src/classify/text/sparse-vector.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import type { TrainingExample } from '../../src/classify/text/train-linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';
import { oracleAccuracy } from './routes-oracle-judge.js';

interface Variant {
  vectorScale?: number;
  /** Adds the element-wise maximum of the content words' vectors (`m:`), scaled. */
  maxPool?: number;
  l2?: number;
  epochs?: number;
  learningRate?: number;
  /** Adds, per route, the soft word overlap with the route's examples (`r:<route>`), scaled; see softMatch. */
  softMatch?: number;
}

/** A route's content words (SIF weight ≥ 0.3, with a vector) and how many of its examples use each. */
type RouteWords = Map<string, number>;
function contentWords(text: string): string[] {
  return [...new Set(tokenize(text).words)].filter((word) => (table.rows.get(word)?.weight ?? 0) >= 0.3);
}
/**
 * Soft word overlap of a request with a route: each content word's best cosine with any of the route's words,
 * averaged with SIF weights. `own`: the example's own words, left out (a training example must not match itself).
 */
function softMatch(words: readonly string[], route: RouteWords, own?: ReadonlySet<string>): number {
  let total = 0;
  let weights = 0;
  for (const word of words) {
    const entry = table.rows.get(word)!;
    let best = 0;
    for (const [other, count] of route) {
      if (own?.has(other) && count <= 1) continue;
      const otherEntry = table.rows.get(other)!;
      let similarity = 0;
      for (let column = 0; column < table.dimensions; column += 1) similarity += table.vectors[entry.row * table.dimensions + column]! * table.vectors[otherEntry.row * table.dimensions + column]!;
      if (similarity > best) best = similarity;
    }
    total += entry.weight * best;
    weights += entry.weight;
  }
  return weights > 0 ? total / weights : 0;
}

const rows = readRouteRows('../shared/corpora/external/clinc150_domains.jsonl');
const domains = [...new Set(rows.filter((row) => row.split === 'train' && row.domain).map((row) => row.domain!))].sort();
const negatives = rows.filter((row) => row.split === 'oos_train').map((row) => row.text);
const scored = rows.filter((row) => row.split !== 'train' && row.split !== 'oos_train');
const table = wordVectorTable();

function features(text: string, variant: Variant): SparseVector {
  const base = utteranceFeatures(text);
  const result: SparseVector = new Map();
  for (const [name, value] of base) result.set(name, name.startsWith('v:') ? value * (variant.vectorScale ?? 1) : value);
  if (variant.maxPool) {
    const maximum = salientMeaning(tokenize(text).words);
    maximum?.forEach((value, column) => result.set(`m:${column}`, value * variant.maxPool!));
  }
  return result;
}

function pick<T>(items: readonly T[], count: number, draw: number, draws: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step + (draw * step) / draws)]!);
}

const variants = JSON.parse(process.env.VARIANTS ?? '{"shipped":{}}') as Record<string, Variant>;
const draws = Number(process.env.DRAWS ?? 3);
for (const size of (process.env.SIZES ?? '10,30').split(',').map((value) => (value === 'all' ? 100_000 : Number(value)))) {
  for (const [name, variant] of Object.entries(variants)) {
    const scoredFeatures = scored.map((row) => features(row.text, variant));
    const results: { oracle: number; top1: number }[] = [];
    for (let draw = 0; draw < (size >= 1500 ? 1 : draws); draw += 1) {
      const byDomain = domains.map((domain) => pick(rows.filter((row) => row.split === 'train' && row.domain === domain).map((row) => row.text), size, draw, draws));
      const routeWords: RouteWords[] = byDomain.map((texts) => {
        const counts: RouteWords = new Map();
        for (const text of texts) for (const word of contentWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
        return counts;
      });
      const withSoft = (text: string, own?: number): SparseVector => {
        const vector = features(text, variant);
        if (!variant.softMatch) return vector;
        const words = contentWords(text);
        const ownWords = new Set(words);
        routeWords.forEach((route, index) => vector.set(`r:${index}`, variant.softMatch! * softMatch(words, route, index === own ? ownWords : undefined)));
        return vector;
      };
      const examples: TrainingExample[] = byDomain.flatMap((texts, label) => texts.map((text) => ({ features: withSoft(text, label), label })));
      const negativeWeight = Math.max(0.2, Math.min(5, examples.length / domains.length / negatives.length));
      for (const text of negatives) examples.push({ features: withSoft(text), label: domains.length, weight: negativeWeight });
      const epochs = variant.epochs ?? Math.max(10, Math.min(40, Math.ceil(120_000 / examples.length)));
      const model = new LinearModel(trainLinearModel(examples, { classes: [...domains, '<none>'], epochs, learningRate: variant.learningRate ?? 0.3, l2: variant.l2 ?? 1e-4, seed: 3, pruneBelow: 0 }));
      const decisions = scoredFeatures.map((vector, position) => {
        if (variant.softMatch) vector = withSoft(scored[position]!.text);
        const { probabilities } = model.predict(vector);
        let best = 0;
        for (let index = 1; index < domains.length; index += 1) if (probabilities[index]! > probabilities[best]!) best = index;
        return { best, score: probabilities[best]! - probabilities[domains.length]! };
      });
      const { atRejection, top1 } = oracleAccuracy(decisions, scored, domains);
      results.push({ oracle: atRejection, top1 });
    }
    const mean = (key: 'oracle' | 'top1') => (results.reduce((sum, item) => sum + item[key], 0) / results.length).toFixed(4);
    console.log(`${String(size).padStart(6)} ${name.padEnd(24)} acc@oos0.80 ${mean('oracle')} top1 ${mean('top1')} draws ${results.map((item) => item.oracle.toFixed(3)).join(' ')}`);
  }
}
