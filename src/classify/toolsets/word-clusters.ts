import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './model-file.js';

/** Where the distilled word-cluster table lives (written by scripts/tool-routing/distil-word-clusters.ts). */
export const wordClustersRelativePath = 'data/tool-routing/word-clusters.json';

interface WordClustersJson {
  format: string;
  words: string;
  fine: string;
  coarse: string;
}

/**
 * Word → cluster ids distilled from pretrained word vectors: words of similar meaning share ids, so the models
 * see "illustration" and "picture" as related though training only ever said one of them. About 40,000 words,
 * two Uint16 ids each; one Map lookup per word at run time.
 */
export class WordClusters {
  readonly #ids = new Map<string, number>();
  readonly #fine: Uint16Array;
  readonly #coarse: Uint16Array;

  constructor(json: WordClustersJson) {
    if (json.format !== 'word-clusters/1') throw new Error(`unknown word-cluster format ${json.format}`);
    json.words.split(' ').forEach((word, index) => this.#ids.set(word, index));
    this.#fine = decode(json.fine);
    this.#coarse = decode(json.coarse);
  }

  get size(): number {
    return this.#ids.size;
  }

  /** `[fine, coarse]` cluster ids of a lower-case word, or undefined when the table does not know it. */
  clustersOf(word: string): readonly [number, number] | undefined {
    const index = this.#ids.get(word);
    if (index === undefined) return undefined;
    return [this.#fine[index]!, this.#coarse[index]!];
  }
}

function decode(base64: string): Uint16Array {
  const bytes = Buffer.from(base64, 'base64');
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Uint16Array(copy.buffer);
}

let cached: WordClusters | null | undefined;

/** The shipped table, loaded once; null when the file is absent (the classifier then runs without it). */
export function loadWordClusters(path = join(packageRoot(), wordClustersRelativePath)): WordClusters | null {
  if (cached === undefined) cached = existsSync(path) ? new WordClusters(JSON.parse(readFileSync(path, 'utf8')) as WordClustersJson) : null;
  return cached;
}
