import { sentenceVector } from '../features/word-vectors.js';
import { tokenize } from '../text/tokens.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { addFeature, normalizeL2 } from '../text/sparse-vector.js';

/**
 * Features of a prompt that predict whether a cheap model gets it wrong. Words and word pairs carry the
 * subject (law and moral-scenario questions are hard for small models, arithmetic word problems less so);
 * shape features carry the structure (length, how many quantities must be combined, multiple-choice layout);
 * word vectors carry meaning beyond the exact words.
 */
export function difficultyFeatures(prompt: string): SparseVector {
  const features: SparseVector = new Map();
  const { words, unspacedGrams, symbols } = tokenize(prompt);
  for (const word of words) addFeature(features, `w:${word}`, 1);
  for (let index = 0; index + 1 < words.length; index += 1) addFeature(features, `b:${words[index]}_${words[index + 1]}`, 1);
  for (const gram of unspacedGrams) addFeature(features, `c:${gram}`, 1);
  for (const symbol of new Set(symbols)) addFeature(features, `s:${symbol}`, 1);
  for (const [name, value] of features) features.set(name, Math.min(value, 3));
  normalizeL2(features);
  for (const [name, value] of shapeFeatures(prompt, words)) features.set(name, value);
  // Word-vector meaning: a finer notion of subject than the words alone (5-fold APGR 0.674 → 0.678 overall,
  // GSM8K 0.584 → 0.590).
  const meaning = sentenceVector(words);
  meaning.vector.forEach((value, index) => {
    if (value !== 0) features.set(`v:${index}`, value * meaning.coverage);
  });
  return features;
}

/** Bucketed so a linear model can learn non-monotonic effects (very short and very long prompts differ). */
function shapeFeatures(prompt: string, words: string[]): [string, number][] {
  const numbers = prompt.match(/\d+(?:[.,]\d+)*/g) ?? [];
  const lines = prompt.split('\n').filter((line) => line.trim()).length;
  const choices = (prompt.match(/^[A-D][.)]\s/gm) ?? []).length;
  const bucket = (value: number): number => Math.min(8, Math.floor(Math.log2(1 + value)));
  const optionLines = prompt.split('\n').filter((line) => /^[A-D][.)]\s/.test(line));
  const optionWords = optionLines.reduce((sum, line) => sum + line.split(/\s+/).length - 1, 0) / Math.max(1, optionLines.length);
  const stemWords = prompt.split(/\n[A-D][.)]\s/)[0]!.split(/\s+/).length;
  return [
    [`shape:words:${bucket(words.length)}`, 1],
    [`shape:numbers:${bucket(numbers.length)}`, 1],
    [`shape:lines:${bucket(lines)}`, 1],
    [`shape:choices:${Math.min(choices, 5)}`, 1],
    [`shape:option-words:${bucket(optionWords)}`, 1],
    [`shape:stem-words:${bucket(stemWords)}`, 1],
    [`shape:longest-number:${Math.min(8, Math.max(0, ...numbers.map((number) => number.replace(/\D/g, '').length)))}`, 1],
  ];
}
