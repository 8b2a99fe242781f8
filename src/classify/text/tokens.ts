/**
 * Tokenisation that works for scripts with and without spaces. Latin-like words become lower-case word
 * tokens; Chinese, Japanese and Thai runs (written without spaces) become overlapping character bigrams, which
 * carry most of the topical signal without a dictionary-based segmenter.
 */

/** Chinese/Japanese ideographs and kana, and Thai: runs without word spacing. */
const unspacedScript = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const tokenPattern = /[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}]/gu;

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export interface TextTokens {
  /** Word tokens in order (numbers collapsed to `<num>`); for unspaced scripts, one token per character run. */
  words: string[];
  /** Character bigrams of unspaced-script runs (and the single characters of one-character runs). */
  unspacedGrams: string[];
  /** Punctuation and symbols kept as their own tokens (`?`, `$`, `=`, `{`…). */
  symbols: string[];
}

export function tokenize(text: string): TextTokens {
  const words: string[] = [];
  const unspacedGrams: string[] = [];
  const symbols: string[] = [];
  for (const match of normalizeText(text).matchAll(tokenPattern)) {
    const token = match[0];
    if (!/[\p{L}\p{M}\p{N}_]/u.test(token)) {
      symbols.push(token);
      continue;
    }
    if (unspacedScript.test(token)) {
      splitUnspaced(token, words, unspacedGrams);
      continue;
    }
    if (hangul.test(token) && !hangulOnly.test(token)) {
      for (const part of token.match(hangulOrOther)!) words.push(/^\d[\d_]*$/.test(part) ? '<num>' : part);
      continue;
    }
    words.push(/^\d[\d_]*$/.test(token) ? '<num>' : token);
  }
  return { words, unspacedGrams, symbols };
}

/**
 * Korean particles are written onto the word before them, English words and numbers included ("Spring에서",
 * "API로", "push가", "2박"): a token mixing Hangul and another script is split where they meet, so that the
 * English word is the same word it is in English text ("spring", "api") and the particle its own word.
 */
const hangul = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/u;
const hangulOnly = /^[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]+$/u;
const hangulOrOther = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]+|[^\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]+/gu;

/** A token may mix scripts ("python的"); the spaced part stays a word, the unspaced part becomes bigrams. */
function splitUnspaced(token: string, words: string[], grams: string[]): void {
  let run = '';
  let other = '';
  const flushRun = (): void => {
    const characters = Array.from(run);
    if (characters.length === 1) grams.push(characters[0] ?? '');
    for (let index = 0; index + 1 < characters.length; index += 1) grams.push(characters[index]! + characters[index + 1]!);
    run = '';
  };
  const flushOther = (): void => {
    if (other) words.push(/^\d+$/.test(other) ? '<num>' : other);
    other = '';
  };
  for (const character of token) {
    if (unspacedScript.test(character)) {
      flushOther();
      run += character;
    } else {
      flushRun();
      other += character;
    }
  }
  flushRun();
  flushOther();
}
