import { fnv1a } from './hash.js';
import type { FramedToken, TokenFrame } from './scopes.js';
import { frameTokens } from './scopes.js';

/** A hashed sparse feature vector: bucket index → value. Sorted indices keep training runs reproducible. */
export interface HashedFeatures {
  indices: Int32Array;
  values: Float32Array;
}

export interface TextSignals {
  /** The message carries an image part. */
  hasImage?: boolean;
}

/** What a token's frame puts before each of its feature names. */
export const framePrefix: Record<TokenFrame, string> = { plain: '', negated: 'n~', quoted: 'q~' };

/**
 * Word unigrams and bigrams, character 4-grams of longer words (so "screenshots" shares evidence with
 * "screenshot"), character 1-3-grams of Chinese runs, and a few shape signals (URL, path, code). Each token's
 * frame prefixes its features, so "run" and "n~run" (negated) are learned separately.
 */
export function textFeatureNames(text: string, signals: TextSignals = {}, tokens: readonly FramedToken[] = frameTokens(text)): string[] {
  const names: string[] = [];
  let previous: FramedToken | undefined;
  for (const token of tokens) {
    tokenFeatureNames(token, names);
    const bigram = tokenBigramName(previous, token);
    if (bigram !== undefined) names.push(bigram);
    previous = token;
  }
  for (const name of wholeTextFeatureNames(text, signals)) names.push(name);
  return names;
}

/** The features of the text as a whole rather than of its tokens: shape signals and the bias. */
export function wholeTextFeatureNames(text: string, signals: TextSignals = {}): string[] {
  const names = shapeSignals(text, signals);
  names.push('bias:text');
  return names;
}

/**
 * The features one token gives on its own, whatever its neighbours: the unigram and character 4-grams of a spaced
 * word, the character 1-3-grams of an unspaced run. With the bigram (`tokenBigramName`) and the whole-text features
 * they are exactly `textFeatureNames`.
 */
export function tokenFeatureNames(token: Pick<FramedToken, 'text' | 'frame' | 'unspaced'>, names: string[] = []): string[] {
  const prefix = framePrefix[token.frame];
  if (token.unspaced) {
    addUnspacedGrams(token.text, prefix, names);
    return names;
  }
  const word = featureWord(token.text);
  names.push(`w:${prefix}${word}`);
  if (word.length >= 5 && !/[/\\.<]/.test(word)) {
    const padded = `^${word}$`;
    for (let index = 0; index + 4 <= padded.length; index += 1) names.push(`c:${prefix}${padded.slice(index, index + 4)}`);
  }
  return names;
}

/** The bigram of a spaced token and the one before it, or undefined when they give none (`textFeatureNames`). */
export function tokenBigramName(previous: FramedToken | undefined, token: FramedToken): string | undefined {
  if (token.unspaced || !previous || previous.frame !== token.frame || previous.unspaced) return undefined;
  return `b:${framePrefix[token.frame]}${previous.text}_${featureWord(token.text)}`;
}

function featureWord(text: string): string {
  return /^https?:\/\//.test(text) ? '<url>' : /^\d+$/.test(text) ? '<num>' : text;
}

function addUnspacedGrams(run: string, prefix: string, names: string[]): void {
  const characters = Array.from(run);
  for (let size = 1; size <= 3; size += 1) {
    for (let index = 0; index + size <= characters.length; index += 1) names.push(`u:${prefix}${characters.slice(index, index + size).join('')}`);
  }
}

function shapeSignals(text: string, signals: TextSignals): string[] {
  const found: string[] = [];
  if (/https?:\/\/\S+/i.test(text)) found.push('s:url');
  else if (/\b[\w-]+\.(com|org|net|io|dev|ai|cn|co|app)\b/i.test(text)) found.push('s:domain');
  if (/(^|\s)(~|\.{1,2})?\/[\w.@-]+(\/[\w.@-]+)*/.test(text) || /\b[\w-]+\.(py|ts|js|json|ya?ml|md|txt|csv|log|toml|go|rs|java|c|cpp|h|sh|sql|html|css|ini|conf|env|lock|xml|pdf|docx?|xlsx?)\b/i.test(text)) found.push('s:path');
  if (/```|`[^`]+`/.test(text)) found.push('s:code');
  if (/(^|\n)\s*\$ \S/.test(text)) found.push('s:prompt');
  if (/\b\d{1,2}(:\d{2})?\s*(am|pm)\b|\b\d{1,2}:\d{2}\b|点|每天|每周|每小时/i.test(text)) found.push('s:time');
  if (/[?？]\s*$/.test(text.trim())) found.push('s:question');
  if (signals.hasImage) found.push('s:image');
  const length = text.length;
  found.push(length < 40 ? 's:len0' : length < 120 ? 's:len1' : length < 400 ? 's:len2' : 's:len3');
  return found;
}

/** Hashes feature names into `2^bits` buckets; values are 1/sqrt(n) so long messages are not over-confident. */
export function hashFeatures(names: readonly string[], bits: number): HashedFeatures {
  const mask = (1 << bits) - 1;
  const hashed = new Int32Array(names.length);
  for (let index = 0; index < names.length; index += 1) hashed[index] = fnv1a(names[index]!) & mask;
  return featuresOfBuckets(hashed);
}

/**
 * The feature vector of buckets already hashed and masked (`hashFeatures`; toolset-features.ts remembers a token's
 * buckets): sorted, duplicates merged, each 1/sqrt(distinct count). Sorts `buckets` in place.
 */
export function featuresOfBuckets(buckets: Int32Array): HashedFeatures {
  buckets.sort();
  let count = 0;
  for (let index = 0; index < buckets.length; index += 1) if (index === 0 || buckets[index] !== buckets[index - 1]) buckets[count++] = buckets[index]!;
  const indices = buckets.slice(0, count);
  const value = count === 0 ? 0 : 1 / Math.sqrt(count);
  return { indices, values: new Float32Array(count).fill(value) };
}
