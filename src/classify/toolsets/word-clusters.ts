import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './model-file.js';
import type { WordClusterViews } from './word-clusters-file.js';
import { decodeWordClusters, wordHash } from './word-clusters-file.js';

/** Where the distilled word-cluster table lives (written by scripts/tool-routing/distil-word-clusters.ts). */
export const wordClustersRelativePath = 'data/tool-routing/word-clusters.bin';

/**
 * Word → cluster ids distilled from pretrained word vectors: words of similar meaning share ids, so the models
 * see "illustration" and "picture" as related though training only ever said one of them. About 40,000 words,
 * two Uint16 ids each, kept as the file's typed arrays with the hash table the file carries
 * (word-clusters-file.ts): loading is one file read, a lookup one hash and a byte comparison or two.
 */
export class WordClusters {
  readonly #views: WordClusterViews;
  readonly #mask: number;
  readonly size: number;

  constructor(file: Uint8Array) {
    const { wordCount, ...views } = decodeWordClusters(file);
    this.#views = views;
    this.#mask = views.slots.length - 1;
    this.size = wordCount;
  }

  /** `[fine, coarse]` cluster ids of a lower-case word, or undefined when the table does not know it. */
  clustersOf(word: string): readonly [number, number] | undefined {
    const index = this.indexOf(word);
    return index < 0 ? undefined : [this.#views.fine[index]!, this.#views.coarse[index]!];
  }

  /**
   * The word's position in the table, or -1 when the table does not know it. The table keeps the source vectors'
   * order, most frequent words first, and word-vectors.ts holds each word's vector at the same position.
   */
  indexOf(word: string): number {
    const { slots, starts, text } = this.#views;
    for (let slot = wordHash(word) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const index = entry - 1;
      const start = starts[index]!;
      if (starts[index + 1]! - start !== word.length) continue;
      let same = true;
      for (let position = 0; position < word.length; position += 1) {
        if (text[start + position] !== word.charCodeAt(position)) {
          same = false;
          break;
        }
      }
      if (same) return index;
    }
  }

  /** The word at a position of the table. */
  wordAt(index: number): string {
    const { starts, text } = this.#views;
    return Buffer.from(text.buffer, text.byteOffset + starts[index]!, starts[index + 1]! - starts[index]!).toString('latin1');
  }
}

let cached: WordClusters | null | undefined;

/** The shipped table, loaded once; null when the file is absent (the classifier then runs without it). */
export function loadWordClusters(path?: string): WordClusters | null {
  if (cached !== undefined) return cached;
  // The path is worked out only for the first load: the classifier asks for the table once per clause.
  const file = path ?? join(packageRoot(), wordClustersRelativePath);
  cached = existsSync(file) ? new WordClusters(readFileSync(file)) : null;
  return cached;
}
