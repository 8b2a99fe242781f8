import { sentenceVector } from '../features/word-vectors.js';
import { tokenize } from '../text/tokens.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { addFeature, normalizeL2 } from '../text/sparse-vector.js';

/**
 * Features for short request utterances: words, word pairs (which carry most of an intent: "transfer money",
 * "my card"), character trigrams of words so that inflections and typos still match an example, and the
 * sentence's word-vector meaning (`v:0`…`v:99`), which lets "reimburse me" match a route whose examples only
 * said "refund".
 */
export function utteranceFeatures(text: string): SparseVector {
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
    if (value !== 0) addFeature(features, `v:${index}`, value * meaning.coverage);
  });
  return features;
}
