import { sentenceVector, wordVectorTable } from '../features/word-vectors.js';
import { loadWordClusters } from '../toolsets/word-clusters.js';
import { tokenize } from '../text/tokens.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { addFeature, normalizeL2 } from '../text/sparse-vector.js';

/**
 * Features for short request utterances: words, word pairs (which carry most of an intent: "transfer money",
 * "my card"), character trigrams of words so that inflections and typos still match an example, and the
 * sentence's word-vector meaning (`v:0`…`v:63`), which lets "reimburse me" match a route whose examples only
 * said "refund", and each word's meaning clusters (`k:` fine, `K:` coarse; the tool router's distilled table),
 * which let a route with ten examples share weights with words its examples never used.
 */
export function utteranceFeatures(text: string): SparseVector {
  const features = utteranceFeaturesWithoutClusters(text);
  const clusters = loadWordClusters();
  if (!clusters) return features;
  for (const word of tokenize(text).words) {
    const ids = clusters.clustersOf(word);
    if (!ids) continue;
    addFeature(features, `k:${ids[0]}`, clusterWeight);
    addFeature(features, `K:${ids[1]}`, clusterWeight);
  }
  return features;
}

/** The features before meaning clusters were added (kept for scripts/classifiers/routes-trials.ts's comparison). */
export function utteranceFeaturesWithoutClusters(text: string): SparseVector {
  const features: SparseVector = new Map();
  const { words, unspacedGrams } = tokenize(text);
  for (const word of words) {
    addFeature(features, `w:${word}`, 1);
    const padded = `^${word}$`;
    if (word.length >= 4) for (let index = 0; index + 3 <= padded.length; index += 1) addFeature(features, `g:${padded.slice(index, index + 3)}`, 0.3);
  }
  for (let index = 0; index + 1 < words.length; index += 1) addFeature(features, `b:${words[index]}_${words[index + 1]}`, 1);
  for (const gram of unspacedGrams) addFeature(features, `c:${gram}`, 1);
  normalizeL2(features);
  const meaning = sentenceVector(words);
  meaning.vector.forEach((value, index) => {
    if (value !== 0) addFeature(features, `v:${index}`, vectorWeight * value * meaning.coverage);
  });
  addSalientMeaning(features, words);
  return features;
}

/**
 * Weight of the sentence's meaning against the unit-length word features, and of its salient meaning (`m:`).
 * CLINC dev split, route accuracy at 80% out-of-scope rejection, mean of three draws of the examples
 * (scripts/classifiers/routes-few-shot-trials.ts), 10 / 30 / 100 / all examples per route: weight 1 and no
 * `m:` 0.539 / 0.748 / 0.874 / 0.959; weight 2 0.563 / 0.757; weight 3 0.560 / 0.753; `m:` alone 0.558 /
 * 0.758; both (shipped) 0.577 / 0.766 / 0.888 / 0.964.
 */
const vectorWeight = 2;

/**
 * The element-wise maximum of the content words' vectors (SIF weight ≥ 0.3, so not "the", "please", "my"):
 * the sentence mean blurs a short request's one telling word ("what's the weather in Paris": "weather") with
 * the rest; the maximum keeps each dimension's most extreme word.
 */
export function salientMeaning(words: readonly string[]): Float32Array | undefined {
  const table = wordVectorTable();
  const maximum = new Float32Array(table.dimensions).fill(-Infinity);
  let found = false;
  for (const word of words) {
    const entry = table.rows.get(word);
    if (!entry || entry.weight < 0.3) continue;
    found = true;
    const offset = entry.row * table.dimensions;
    for (let column = 0; column < table.dimensions; column += 1) maximum[column] = Math.max(maximum[column]!, table.vectors[offset + column]!);
  }
  return found ? maximum : undefined;
}

function addSalientMeaning(features: SparseVector, words: readonly string[]): void {
  salientMeaning(words)?.forEach((value, column) => {
    if (value !== 0) features.set(`m:${column}`, value);
  });
}

/**
 * Weight of each word's cluster features against the unit-length word features. CLINC dev split, route
 * accuracy at 80% out-of-scope rejection (scripts/classifiers/routes-trials.ts), 10/30/100 examples per route:
 * without clusters 0.506/0.736/0.858, weight 0.2 0.559/0.763/0.874, 0.4 0.548/0.749/0.859, 0.7 0.524/0.711/0.821.
 */
const clusterWeight = 0.2;
