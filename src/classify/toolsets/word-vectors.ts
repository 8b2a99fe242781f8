import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './model-file.js';
import type { WordClusters } from './word-clusters.js';
import { decodeWordVectors } from './word-vectors-file.js';

/** Where the distilled word vectors live (written by scripts/tool-routing/distil-word-vectors.ts). */
export const wordVectorsRelativePath = 'data/tool-routing/word-vectors.bin';

/**
 * Pretrained word vectors (Int8, unit length × 127) for the words of the word-cluster table, at the same positions.
 * A text's meaning is the weighted mean of its words' vectors: "psychologist" lands near a tool that finds a
 * "therapist", "music" near one that plays a "song", though they share no word. Clusters give that only to words
 * k-means happened to put together; a cosine is graded.
 */
export class WordVectors {
  readonly dimensions: number;
  readonly size: number;
  readonly #components: Int8Array;

  constructor(file: Uint8Array) {
    const { dimensions, wordCount, components } = decodeWordVectors(file);
    this.dimensions = dimensions;
    this.size = wordCount;
    this.#components = components;
  }

  /**
   * The unit-length meaning of `words` (lower-case, as the cluster table holds them), or undefined when the table
   * knows none of them. A word weighs log(1 + rank / 100) by its frequency rank (the table is most frequent first):
   * the commonest words say least about what a text is for.
   */
  meaningOf(words: readonly string[], clusters: WordClusters): Float32Array | undefined {
    const dimensions = this.dimensions;
    const sum = new Float32Array(dimensions);
    let known = 0;
    for (const word of words) {
      const index = clusters.indexOf(word);
      if (index < 0 || index >= this.size) continue;
      known += 1;
      const weight = Math.log(1 + index / 100);
      const start = index * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension += 1) sum[dimension]! += weight * this.#components[start + dimension]!;
    }
    if (known === 0) return undefined;
    let norm = 0;
    for (let dimension = 0; dimension < dimensions; dimension += 1) norm += sum[dimension]! * sum[dimension]!;
    if (norm === 0) return undefined;
    const scale = 1 / Math.sqrt(norm);
    for (let dimension = 0; dimension < dimensions; dimension += 1) sum[dimension]! *= scale;
    return sum;
  }
}

let cached: WordVectors | null | undefined;

/** The shipped table, loaded once; null when the file is absent (per-tool ranking is then BM25 and clusters alone). */
export function loadWordVectors(path?: string): WordVectors | null {
  if (cached !== undefined) return cached;
  const file = path ?? join(packageRoot(), wordVectorsRelativePath);
  cached = existsSync(file) ? new WordVectors(readFileSync(file)) : null;
  return cached;
}
