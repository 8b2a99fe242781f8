import { readFileSync } from 'node:fs';
import { packageDataPath } from '../text/package-data.js';

/**
 * Pretrained word vectors, distilled at training time (scripts/classifiers/distil-word-vectors.ts) into
 * data/word-vectors/: about 62,000 English words (the most frequent, plus the rarer words of the training
 * data), their 64 principal components quantised to a byte each, and a SIF weight per word. They give classifiers trained on
 * a few hundred examples a notion of meaning: "invoice" and "receipt", "rash" and "fever" land close together
 * even when only one of them was ever seen in training. Shared by every classifier (topics, routes, difficulty,
 * tools); read once, when the first classifier using it is built (about 4.9 MB, 0.1–0.5 s).
 */
export interface WordVectorTable {
  readonly dimensions: number;
  /** Row of each known word, and its weight: near 0 for function words, near 1 for rare content words. */
  readonly rows: ReadonlyMap<string, { row: number; weight: number }>;
  /** Unit-length rows, `dimensions` floats each. */
  readonly vectors: Float32Array;
}

const dimensions = 64;
let table: WordVectorTable | undefined;

export function wordVectorTable(): WordVectorTable {
  if (table) return table;
  const bytes = readFileSync(packageDataPath('data/word-vectors/vectors.i8'));
  const lines = readFileSync(packageDataPath('data/word-vectors/words.tsv'), 'utf8').split('\n').filter(Boolean);
  if (bytes.length !== lines.length * dimensions) throw new Error(`hermes-router: data/word-vectors: ${lines.length} words but ${bytes.length} vector bytes`);
  const vectors = new Float32Array(bytes.length);
  const rows = new Map<string, { row: number; weight: number }>();
  lines.forEach((line, row) => {
    const [word, weight] = line.split('\t');
    rows.set(word!, { row, weight: Number(weight) });
    let norm = 0;
    for (let column = 0; column < dimensions; column += 1) {
      const value = (bytes[row * dimensions + column]! << 24) >> 24; // bytes are signed
      vectors[row * dimensions + column] = value;
      norm += value * value;
    }
    const scale = 1 / (Math.sqrt(norm) || 1);
    for (let column = 0; column < dimensions; column += 1) vectors[row * dimensions + column]! *= scale;
  });
  table = { dimensions, rows, vectors };
  return table;
}

export interface SentenceVector {
  /** Unit length, or all zeros when no word was known. */
  vector: Float32Array;
  /** Share of the words' total weight that had a vector (0 when none did): how much to trust `vector`. */
  coverage: number;
}

/**
 * The SIF-weighted mean of the words' vectors, scaled to unit length. Words without a vector (typos, code
 * identifiers, other scripts) are skipped; `coverage` says how much of the text the vector speaks for.
 */
export function sentenceVector(words: readonly string[], vectors: WordVectorTable = wordVectorTable()): SentenceVector {
  const sum = new Float32Array(vectors.dimensions);
  let known = 0;
  let unknown = 0;
  for (const word of words) {
    const entry = vectors.rows.get(word);
    if (!entry) {
      // An unknown word is most likely rare: count it as a full-weight word the vector does not cover.
      if (/^\p{L}{3,}$/u.test(word)) unknown += 1;
      continue;
    }
    known += entry.weight;
    const offset = entry.row * vectors.dimensions;
    for (let column = 0; column < vectors.dimensions; column += 1) sum[column]! += entry.weight * vectors.vectors[offset + column]!;
  }
  let norm = 0;
  for (const value of sum) norm += value * value;
  if (norm === 0) return { vector: sum, coverage: 0 };
  const scale = 1 / Math.sqrt(norm);
  for (let column = 0; column < sum.length; column += 1) sum[column]! *= scale;
  return { vector: sum, coverage: known / (known + unknown) };
}

/** Cosine of two unit vectors. */
export function cosine(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += left[index]! * right[index]!;
  return sum;
}
