/**
 * Compares route scorers on CLINC150's dev split at 10/30/100/all examples per route, before any of them
 * becomes the shipped RouteClassifier: the lexical logistic regression alone, nearest examples by word-vector
 * meaning (k-NN, centroid), and their blends. Each scorer is judged by route accuracy at the threshold that
 * rejects 80% of the out-of-scope val rows (an oracle threshold, only to compare how well each separates
 * in-scope from out-of-scope; the shipped threshold is calibrated on the examples themselves).
 *
 *   npx tsx scripts/classifiers/routes-trials.ts [../shared/corpora/external/clinc150_domains.jsonl]
 */
import { sentenceVector } from '../../src/classify/features/word-vectors.js';
import { utteranceFeaturesWithoutClusters as utteranceFeatures } from '../../src/classify/routes/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import type { TrainingExample } from '../../src/classify/text/train-linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';
import { NearestExampleIndex } from '../../src/classify/routes/nearest-example.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { addFeature } from '../../src/classify/text/sparse-vector.js';
import { type RouteDecision, oracleAccuracy } from './routes-oracle-judge.js';

const clusters = loadWordClusters();
/** The shipped features (utteranceFeatures), with the cluster weight as a parameter (CLUSTER_WEIGHT, default 0.2). */
function clusterFeatures(text: string) {
  const features = utteranceFeatures(text);
  const { words } = tokenize(text);
  for (const word of words) {
    const ids = clusters?.clustersOf(word);
    if (!ids) continue;
    addFeature(features, `k:${ids[0]}`, clusterWeight);
    addFeature(features, `K:${ids[1]}`, clusterWeight);
  }
  return features;
}
const clusterWeight = Number(process.env.CLUSTER_WEIGHT ?? 0.2);

const rows = readRouteRows(process.argv[2] ?? '../shared/corpora/external/clinc150_domains.jsonl');
const domains = [...new Set(rows.filter((row) => row.split === 'train' && row.domain).map((row) => row.domain!))].sort();
const negatives = rows.filter((row) => row.split === 'oos_train').map((row) => row.text);
const scored = rows.filter((row) => row.split !== 'train' && row.split !== 'oos_train');
const vectorOf = (text: string) => sentenceVector(tokenize(text).words).vector;
const dot = (left: Float32Array, right: Float32Array) => {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += left[index]! * right[index]!;
  return sum;
};
const scoredVectors = scored.map((row) => vectorOf(row.text));
const negativeVectors = negatives.map(vectorOf);

function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step)]!);
}

/** Per scored row: the chosen route and a score where higher means "more in scope". */
type Decisions = RouteDecision[];

function judge(name: string, decisions: Decisions): string {
  const { atRejection, top1 } = oracleAccuracy(decisions, scored, domains);
  return `${name.padEnd(34)} top1 ${top1.toFixed(3)}  acc@oos0.80 ${atRejection.toFixed(3)}`;
}

for (const perRoute of (process.env.SIZES ?? "10,30,100,all").split(",").map((size) => (size === "all" ? undefined : Number(size)))) {
  const byDomain = domains.map((domain) => {
    const texts = rows.filter((row) => row.split === 'train' && row.domain === domain).map((row) => row.text);
    return perRoute === undefined ? texts : evenlySpaced(texts, perRoute);
  });
  const lrProbabilities = (featuresOf: typeof utteranceFeatures) => {
    const examples: TrainingExample[] = byDomain.flatMap((texts, label) => texts.map((text) => ({ features: featuresOf(text), label })));
    const averageRouteSize = examples.length / domains.length;
    const negativeWeight = Math.max(0.2, Math.min(5, averageRouteSize / negatives.length));
    for (const text of negatives) examples.push({ features: featuresOf(text), label: domains.length, weight: negativeWeight });
    const epochs = Math.max(10, Math.min(40, Math.ceil(120_000 / examples.length)));
    const model = new LinearModel(trainLinearModel(examples, { classes: [...domains, '<none>'], epochs, learningRate: 0.3, l2: 1e-4, seed: 3, pruneBelow: 0 }));
    return scored.map((row) => model.predict(featuresOf(row.text)).probabilities);
  };
  const probabilities = lrProbabilities(utteranceFeatures);
  const clusterProbabilities = lrProbabilities(clusterFeatures);
  const lexical = new NearestExampleIndex(byDomain.flatMap((texts, route) => texts.map((text) => ({ text, route }))));
  const lexicalNegatives = new NearestExampleIndex(negatives.map((text) => ({ text, route: 0 })));
  const lexicalSimilarity = scored.map((row) => lexical.bestSimilarityByRoute(row.text, domains.length));
  const lexicalNegative = scored.map((row) => lexicalNegatives.bestSimilarityByRoute(row.text, 1)[0]!);
  const routeVectors = byDomain.map((texts) => texts.map(vectorOf));
  const centroids = routeVectors.map((vectors) => {
    const sum = new Float32Array(64);
    for (const vector of vectors) for (let index = 0; index < 64; index += 1) sum[index]! += vector[index]!;
    const norm = Math.sqrt(dot(sum, sum)) || 1;
    return sum.map((value) => value / norm);
  });
  // Similarities of each scored row to every example of each route, sorted high to low.
  const similarities = scoredVectors.map((vector) => routeVectors.map((vectors) => vectors.map((example) => dot(vector, example)).sort((left, right) => right - left)));
  const negativeSimilarity = scoredVectors.map((vector) => Math.max(...negativeVectors.map((example) => dot(vector, example))));
  const topK = (k: number) => similarities.map((perRouteSimilarities) => perRouteSimilarities.map((list) => list.slice(0, k).reduce((sum, value) => sum + value, 0) / Math.min(k, list.length)));
  const argmax = (values: readonly number[]) => values.reduce((best, value, index) => (value > values[best]! ? index : best), 0);
  const lines: string[] = [];
  const lrDecisions = probabilities.map((probability) => {
    const best = argmax(probability.slice(0, domains.length));
    return { best, score: probability[best]! - probability[domains.length]! };
  });
  lines.push(judge('logistic regression (margin)', lrDecisions));
  lines.push(judge('LR + clusters (margin)', clusterProbabilities.map((probability) => {
    const best = argmax(probability.slice(0, domains.length));
    return { best, score: probability[best]! - probability[domains.length]! };
  })));
  lines.push(judge('lexical 1-NN', lexicalSimilarity.map((values) => ({ best: argmax(values), score: Math.max(...values) }))));
  const mixed = lexicalSimilarity.map((values, index) => values.map((value, route) => 0.5 * value + 0.5 * similarities[index]![route]![0]!));
  const mixedNegative = lexicalNegative.map((value, index) => 0.5 * value + 0.5 * negativeSimilarity[index]!);
  lines.push(judge('lexical+vector 1-NN', mixed.map((values) => ({ best: argmax(values), score: Math.max(...values) }))));
  const blendWith = (base: number[][], routeScores: number[][], negativeScores: number[], temperature: number, blend: number) =>
    base.map((probability, index) => {
      const logits = probability.map((value, route) => (1 - blend) * Math.log(Math.max(value, 1e-9)) + (blend * (route < domains.length ? routeScores[index]![route]! : negativeScores[index]!)) / temperature);
      const maximum = Math.max(...logits);
      const exponentials = logits.map((logit) => Math.exp(logit - maximum));
      const total = exponentials.reduce((sum, value) => sum + value, 0);
      const combined = exponentials.map((value) => value / total);
      const best = argmax(combined.slice(0, domains.length));
      return { best, score: combined[best]! - combined[domains.length]! };
    });
  for (const temperature of [0.05, 0.1]) for (const blend of [0.3, 0.5, 0.7]) {
    lines.push(judge(`LR+mixed1NN T=${temperature} w=${blend}`, blendWith(probabilities, mixed, mixedNegative, temperature, blend)));
    lines.push(judge(`LRclusters+mixed1NN T=${temperature} w=${blend}`, blendWith(clusterProbabilities, mixed, mixedNegative, temperature, blend)));
  }
  for (const k of [3]) {
    const scores = topK(k);
    lines.push(judge(`vector ${k}-NN mean`, scores.map((values) => ({ best: argmax(values), score: Math.max(...values) }))));
    lines.push(judge(`vector ${k}-NN minus nearest negative`, scores.map((values, index) => ({ best: argmax(values), score: Math.max(...values) - negativeSimilarity[index]! }))));
  }
  lines.push(judge('vector centroid', scoredVectors.map((vector) => {
    const values = centroids.map((centroid) => dot(vector, centroid));
    return { best: argmax(values), score: Math.max(...values) };
  })));
  for (const k of [1]) {
    const scores = topK(k);
    for (const temperature of [0.1]) {
      for (const blend of [0.5, 0.7]) {
        // Product of experts: log P_LR(route) + blend · similarity / temperature, over routes and "no route"
        // (whose similarity is that of the nearest negative).
        lines.push(judge(`blend k=${k} T=${temperature} w=${blend}`, blendWith(probabilities, scores, negativeSimilarity, temperature, blend)));
      }
    }
  }
  process.stdout.write(`\n## examples per route: ${perRoute ?? 'all'}\n${lines.join('\n')}\n`);
}
