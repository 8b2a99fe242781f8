/**
 * Experiment helper (not part of training): rejection scores for routes built from few examples, blended with
 * the shipped probability margin, on CLINC150's dev split (train rows build the routes, val / oos_val are
 * scored), judged as routes-few-shot-trials.ts judges (route accuracy at the threshold rejecting 80% of
 * oos_val, mean over draws of the examples). The shipped model is built as RouteClassifier builds it.
 *
 * Scores tried on top of the margin:
 * - `llr`: a per-route word model against a shared background model of English (word probabilities from the
 *   vector table's SIF weights, p = a (1 - w) / w): the mean over the request's content words of
 *   log P_route(word) / P_background(word), where the route's word model backs off from its examples' words to
 *   their meaning clusters (the tool router's fine and coarse clusters) and then to the background.
 * - `known`: the share of the request's content words (SIF-weighted) that the best route's examples used, or
 *   half credit for a word sharing a fine cluster with one of them.
 *
 *   SIZES=10,30 DRAWS=3 npx tsx scripts/classifiers/routes-background-trials.ts
 */
import { wordVectorTable } from '../../src/classify/features/word-vectors.js';
import { utteranceFeatures } from '../../src/classify/routes/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import type { TrainingExample } from '../../src/classify/text/train-linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';
import { oracleAccuracy } from './routes-oracle-judge.js';

const rows = readRouteRows('../shared/corpora/external/clinc150_domains.jsonl');
const domains = [...new Set(rows.filter((row) => row.split === 'train' && row.domain).map((row) => row.domain!))].sort();
const negatives = rows.filter((row) => row.split === 'oos_train').map((row) => row.text);
const scored = rows.filter((row) => row.split === 'val' || row.split === 'oos_val');
const table = wordVectorTable();
const clusters = loadWordClusters()!;

const sifA = 1e-3;
const floor = 1e-7;
const background = (word: string): number => {
  const entry = table.rows.get(word);
  if (!entry) return floor;
  return Math.max(floor, (sifA * (1 - entry.weight)) / Math.max(entry.weight, 1e-3));
};
// Background probability mass of each cluster (fine, coarse), over the table's words.
const fineMass = new Map<number, number>();
const coarseMass = new Map<number, number>();
for (const word of table.rows.keys()) {
  const ids = clusters.clustersOf(word);
  if (!ids) continue;
  fineMass.set(ids[0], (fineMass.get(ids[0]) ?? 0) + background(word));
  coarseMass.set(ids[1], (coarseMass.get(ids[1]) ?? 0) + background(word));
}
const isContent = (word: string) => (table.rows.get(word)?.weight ?? 1) >= 0.3;

interface RouteWordModel {
  words: Map<string, number>;
  fine: Map<number, number>;
  coarse: Map<number, number>;
  total: number;
}
function routeWordModel(texts: readonly string[]): RouteWordModel {
  const model: RouteWordModel = { words: new Map(), fine: new Map(), coarse: new Map(), total: 0 };
  for (const text of texts) {
    for (const word of tokenize(text).words) {
      if (!isContent(word)) continue;
      model.total += 1;
      model.words.set(word, (model.words.get(word) ?? 0) + 1);
      const ids = clusters.clustersOf(word);
      if (!ids) continue;
      model.fine.set(ids[0], (model.fine.get(ids[0]) ?? 0) + 1);
      model.coarse.set(ids[1], (model.coarse.get(ids[1]) ?? 0) + 1);
    }
  }
  return model;
}
const mix = (process.env.MIX ?? '0.4,0.25,0.15,0.2').split(',').map(Number) as [number, number, number, number];
function llr(words: readonly string[], model: RouteWordModel): number {
  const content = words.filter(isContent);
  if (!content.length || !model.total) return 0;
  let sum = 0;
  for (const word of content) {
    const base = background(word);
    const ids = clusters.clustersOf(word);
    let probability = mix[3] * base + (mix[0] * (model.words.get(word) ?? 0)) / model.total;
    if (ids) {
      probability += ((mix[1] * (model.fine.get(ids[0]) ?? 0)) / model.total) * (base / (fineMass.get(ids[0]) ?? base));
      probability += ((mix[2] * (model.coarse.get(ids[1]) ?? 0)) / model.total) * (base / (coarseMass.get(ids[1]) ?? base));
    }
    sum += Math.log(probability / base);
  }
  return sum / content.length;
}
function known(words: readonly string[], model: RouteWordModel): number {
  let total = 0;
  let hit = 0;
  for (const word of words) {
    const weight = table.rows.get(word)?.weight ?? 1;
    if (weight < 0.3) continue;
    total += weight;
    if (model.words.has(word)) hit += weight;
    else {
      const ids = clusters.clustersOf(word);
      if (ids && model.fine.has(ids[0])) hit += weight / 2;
    }
  }
  return total ? hit / total : 0;
}

function pick<T>(items: readonly T[], count: number, draw: number, draws: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step + (draw * step) / draws)]!);
}

const draws = Number(process.env.DRAWS ?? 3);
const scoredFeatures = scored.map((row) => utteranceFeatures(row.text));
const scoredWords = scored.map((row) => tokenize(row.text).words);
const blends: Record<string, (margin: number, llrBest: number, llrMax: number, knownBest: number) => number> = {
  shipped: (margin) => margin,
  'llr alone': (_, llrBest) => llrBest,
  'llr max alone': (_, __, llrMax) => llrMax,
  'known alone': (_, __, ___, knownBest) => knownBest,
};
for (const weight of (process.env.WEIGHTS ?? '0.02,0.05,0.1,0.2').split(',').map(Number)) {
  blends[`margin + ${weight} llr`] = (margin, llrBest) => margin + weight * llrBest;
  blends[`margin + ${weight} llrmax`] = (margin, _, llrMax) => margin + weight * llrMax;
}
for (const weight of [0.25, 0.5, 1]) blends[`margin + ${weight} known`] = (margin, _, __, knownBest) => margin + weight * knownBest;

for (const size of (process.env.SIZES ?? '10,30').split(',').map((value) => (value === 'all' ? 100_000 : Number(value)))) {
  const results = new Map<string, number[]>();
  const top1s: number[] = [];
  for (let draw = 0; draw < (size >= 1500 ? 1 : draws); draw += 1) {
    const byDomain = domains.map((domain) => pick(rows.filter((row) => row.split === 'train' && row.domain === domain).map((row) => row.text), size, draw, draws));
    const examples: TrainingExample[] = byDomain.flatMap((texts, label) => texts.map((text) => ({ features: utteranceFeatures(text), label })));
    const negativeWeight = Math.max(0.2, Math.min(5, examples.length / domains.length / negatives.length));
    const epochs = Math.max(10, Math.min(40, Math.ceil(120_000 / (examples.length + negatives.length))));
    for (const text of negatives) examples.push({ features: utteranceFeatures(text), label: domains.length, weight: negativeWeight });
    const model = new LinearModel(trainLinearModel(examples, { classes: [...domains, '<none>'], epochs, learningRate: 0.3, l2: 1e-4, seed: 3, pruneBelow: 0 }));
    // BAG=k: k more models, each without every k-th route example (a different one per model), probabilities averaged.
    const bag = Number(process.env.BAG ?? 0);
    const bagged = Array.from({ length: bag }, (_, member) => new LinearModel(trainLinearModel(examples.filter((example, index) => example.label === domains.length || index % bag !== member), { classes: [...domains, '<none>'], epochs, learningRate: 0.3, l2: 1e-4, seed: 3 + member, pruneBelow: 0 })));
    const predict = (vector: Map<string, number>) => {
      if (!bag) return model.predict(vector).probabilities;
      const sum = [...model.predict(vector).probabilities];
      for (const member of bagged) member.predict(vector).probabilities.forEach((value, index) => (sum[index]! += value));
      return sum.map((value) => value / (bag + 1));
    };
    const wordModels = byDomain.map(routeWordModel);
    const raw = scoredFeatures.map((vector, position) => {
      const probabilities = predict(vector);
      let best = 0;
      for (let index = 1; index < domains.length; index += 1) if (probabilities[index]! > probabilities[best]!) best = index;
      const ratios = wordModels.map((wordModel) => llr(scoredWords[position]!, wordModel));
      return { best, margin: probabilities[best]! - probabilities[domains.length]!, llrBest: ratios[best]!, llrMax: Math.max(...ratios), knownBest: known(scoredWords[position]!, wordModels[best]!) };
    });
    for (const [name, blend] of Object.entries(blends)) {
      const decisions = raw.map((item) => ({ best: item.best, score: blend(item.margin, item.llrBest, item.llrMax, item.knownBest) }));
      const { atRejection, top1 } = oracleAccuracy(decisions, scored, domains);
      results.set(name, [...(results.get(name) ?? []), atRejection]);
      if (name === 'shipped') top1s.push(top1);
    }
  }
  const mean = (list: readonly number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
  console.log(`${size}: top1 ${mean(top1s).toFixed(4)}`);
  for (const [name, list] of results) console.log(`${String(size).padStart(6)} ${name.padEnd(24)} acc@oos0.80 ${mean(list).toFixed(4)} draws ${list.map((value) => value.toFixed(3)).join(' ')}`);
}
