import { fnv1a } from '../features/hash.js';
import type { FramedToken } from '../features/scopes.js';
import { frameTokens } from '../features/scopes.js';
import type { HashedFeatures } from '../features/text-features.js';
import { featuresOfBuckets, framePrefix, textFeatureNames, tokenBigramName, tokenFeatureNames, wholeTextFeatureNames } from '../features/text-features.js';
import type { WordClusters } from './word-clusters.js';

/**
 * The toolset model's features: the shared hashed n-grams plus, per word, its fine and coarse word-cluster ids
 * (same frame prefix as the word, so a negated "picture" stays apart from an asked-for one). The cluster
 * features carry meaning across paraphrase: a word the training lines never used shares weights with the
 * words of similar meaning they did use. One function for the trainer and the runtime, so both see the same.
 */
export function toolsetFeatureNames(text: string, hasImage: boolean, tokens: readonly FramedToken[] = frameTokens(text), clusters?: WordClusters | null): string[] {
  const names = textFeatureNames(text, { hasImage }, tokens);
  if (!clusters) return names;
  for (const token of tokens) for (const name of tokenClusterNames(token, clusters)) names.push(name);
  return names;
}

function tokenClusterNames(token: FramedToken, clusters: WordClusters): string[] {
  if (token.unspaced) return [];
  const found = clusters.clustersOf(token.text.replace(/^'+|'+$/g, ''));
  if (!found) return [];
  const prefix = framePrefix[token.frame];
  return [`k:${prefix}${found[0]}`, `K:${prefix}${found[1]}`];
}

/**
 * Exactly `hashFeatures(toolsetFeatureNames(...))`, with each token's own features (`tokenFeatureNames` and its
 * clusters) hashed once and remembered. A decision scores the message, its clauses and its overlapping word windows
 * (window-need.ts), so most tokens are featurised several times per decision, and building and hashing their names
 * was a fifth of the slowest decisions' time; the cache holds the buckets, not the names.
 */
export function toolsetFeatures(text: string, hasImage: boolean, bits: number, tokens: readonly FramedToken[] = frameTokens(text), clusters?: WordClusters | null): HashedFeatures {
  const cache = tokenBucketCache(bits, clusters ?? null);
  const mask = (1 << bits) - 1;
  const buckets: number[] = [];
  let previous: FramedToken | undefined;
  for (const token of tokens) {
    for (const bucket of cache.bucketsOf(token)) buckets.push(bucket);
    const bigram = tokenBigramName(previous, token);
    if (bigram !== undefined) buckets.push(fnv1a(bigram) & mask);
    previous = token;
  }
  for (const name of wholeTextFeatureNames(text, { hasImage })) buckets.push(fnv1a(name) & mask);
  // `new Int32Array(array)` copies by index; `Int32Array.from` walks an iterator and cost as much as the sort.
  return featuresOfBuckets(new Int32Array(buckets));
}

/**
 * Tokens remembered before the cache starts over: about 3 MB of heap when full (measured with long words: 7.6 MB for
 * 50,000). What saves the time is a decision meeting its own tokens again (windows, clauses), which any size larger
 * than one message serves.
 */
const cachedTokenLimit = 20_000;

const unspacedKinds: Record<FramedToken['frame'], string> = { plain: 'plain/unspaced', negated: 'negated/unspaced', quoted: 'quoted/unspaced' };

class TokenBucketCache {
  /** One map per frame and kind of token, keyed by the token's text: no key is built per lookup. */
  readonly #entries = new Map<string, Map<string, readonly number[]>>();
  #size = 0;

  constructor(
    readonly bits: number,
    readonly clusters: WordClusters | null,
  ) {}

  bucketsOf(token: FramedToken): readonly number[] {
    const kind = token.unspaced ? unspacedKinds[token.frame] : token.frame;
    let entries = this.#entries.get(kind);
    const known = entries?.get(token.text);
    if (known !== undefined) return known;
    const mask = (1 << this.bits) - 1;
    const names = tokenFeatureNames(token);
    if (this.clusters) for (const name of tokenClusterNames(token, this.clusters)) names.push(name);
    const buckets = names.map((name) => fnv1a(name) & mask);
    if (this.#size >= cachedTokenLimit) {
      this.#entries.clear();
      this.#size = 0;
      entries = undefined;
    }
    if (entries === undefined) this.#entries.set(kind, (entries = new Map()));
    entries.set(token.text, buckets);
    this.#size += 1;
    return buckets;
  }
}

let current: TokenBucketCache | undefined;

/** One cache for the model's bucket width and word clusters; another model or table (a trainer's fold) replaces it. */
function tokenBucketCache(bits: number, clusters: WordClusters | null): TokenBucketCache {
  if (current === undefined || current.bits !== bits || current.clusters !== clusters) current = new TokenBucketCache(bits, clusters);
  return current;
}
