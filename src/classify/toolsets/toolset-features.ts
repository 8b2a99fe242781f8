import type { FramedToken } from '../features/scopes.js';
import { frameTokens } from '../features/scopes.js';
import type { HashedFeatures } from '../features/text-features.js';
import { hashFeatures, textFeatureNames } from '../features/text-features.js';
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
  for (const token of tokens) {
    if (token.unspaced) continue;
    const found = clusters.clustersOf(token.text.replace(/^'+|'+$/g, ''));
    if (!found) continue;
    const prefix = token.frame === 'plain' ? '' : token.frame === 'negated' ? 'n~' : 'q~';
    names.push(`k:${prefix}${found[0]}`, `K:${prefix}${found[1]}`);
  }
  return names;
}

export function toolsetFeatures(text: string, hasImage: boolean, bits: number, tokens?: readonly FramedToken[], clusters?: WordClusters | null): HashedFeatures {
  return hashFeatures(toolsetFeatureNames(text, hasImage, tokens, clusters), bits);
}
