import { normalizeText, tokenize } from '../text/tokens.js';

/** Which terms of each list occur in a text. */
export type LexiconMatches<Label extends string> = Map<Label, string[]>;

interface Phrase<Label extends string> {
  words: string[];
  term: string;
  label: Label;
}

interface CompiledLexicon<Label extends string> {
  exact: Map<string, Label[]>;
  stems: Map<string, Label[]>;
  /** Phrases by their first word; `stemPhrases` by their first word's stem ("ошибк* компиляции"). */
  phrases: Map<string, Phrase<Label>[]>;
  stemPhrases: Map<string, Phrase<Label>[]>;
  substrings: { term: string; label: Label }[];
}

/** A term of spaced-script letters (any alphabet), optionally a `*` stem; Chinese, Japanese and Thai terms match as substrings. */
const plainWord = /^[\p{L}\p{M}\p{N}']+\*?$/u;
const unspacedScript = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const isPlainWord = (term: string): boolean => plainWord.test(term) && !unspacedScript.test(term);

/**
 * A term's words as `tokenize` cuts a text: an apostrophe separates words ("that's" → "that", "s"; "l'ordinateur"
 * → "l", "ordinateur") and a number is `<num>`, else a term holding either could never match.
 */
function termWords(term: string): string[] {
  return term
    .replace(/['\u2019\u02bc]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? '<num>' : foldAccents(part)));
}

/**
 * Latin, Greek and Cyrillic letters without their accents, on terms and words alike: people type "matematicas"
 * for "matemáticas" and "e" for "ё". ASCII words are returned as they are (the common case costs one test).
 */
export function foldAccents(word: string): string {
  if (!/[^\x00-\x7f]/.test(word)) return word;
  const folded = word.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return (scriptVariant.test(folded) ? foldScriptVariants(folded) : folded).normalize('NFC');
}

/**
 * Arabic-script and Indic letters written more than one way: Arabic short vowels, hamza seats and tatweel are
 * dropped, Arabic yeh/alef maqsura and kaf are read as the Persian/Urdu letters, ta marbuta and Urdu heh as heh,
 * and the nukta of Devanagari, Bengali, Gurmukhi and Gujarati is dropped ("फ़िल्म" and "फिल्म"). Runs after NFD,
 * which has split hamza and madda off their letters.
 */
const scriptVariant = /[\u0600-\u06ff\u093c\u09bc\u0a3c\u0abc]/u;
const scriptLetters: Record<string, string> = { '\u064a': '\u06cc', '\u0649': '\u06cc', '\u0643': '\u06a9', '\u0629': '\u0647', '\u06c1': '\u0647', '\u06c3': '\u0647', '\u06c0': '\u0647', '\u0671': '\u0627' };
function foldScriptVariants(word: string): string {
  return word.replace(/[\u064b-\u065f\u0670\u0640\u093c\u09bc\u0a3c\u0abc]/gu, '').replace(/[\u064a\u0649\u0643\u0629\u06c1\u06c3\u06c0\u0671]/gu, (letter) => scriptLetters[letter] ?? letter);
}

/**
 * An Arabic word with its clitics taken off, for matching alone: the conjunctions و/ف and the article with a
 * preposition ("والطبيب", "بالدواء", "للمحامي" are "الطبيب", "دواء", "محامي"). Only what leaves three letters.
 */
function arabicStems(word: string): string[] {
  if (!/^[\u0621-\u064a\u06a9\u06cc]{4,}$/u.test(word)) return [];
  const stems: string[] = [];
  const bare = /^[\u0648\u0641]/u.test(word) ? word.slice(1) : word;
  if (bare !== word) stems.push(bare);
  const article = /^(?:\u0627\u0644|\u0628\u0627\u0644|\u06a9\u0627\u0644|\u0644\u0644)/u.exec(bare);
  if (article && bare.length - article[0].length >= 3) stems.push(bare.slice(article[0].length));
  return stems;
}

/** Compiles term lists once; matching then costs a map lookup per word and per word prefix. */
export class LexiconMatcher<Label extends string> {
  private readonly compiled: CompiledLexicon<Label> = { exact: new Map(), stems: new Map(), phrases: new Map(), stemPhrases: new Map(), substrings: [] };
  /** The lengths of the stems, longest first: a word is only cut at these (a handful, not every length). */
  private readonly stemLengths: number[];

  constructor(lexicon: Record<Label, readonly string[]>) {
    for (const [label, terms] of Object.entries(lexicon) as [Label, readonly string[]][]) {
      for (const rawTerm of terms) {
        const term = normalizeText(rawTerm);
        const parts = termWords(term);
        if (parts.length > 1 && parts.every(isPlainWord)) {
          const first = parts[0]!;
          const index = first.endsWith('*') ? this.compiled.stemPhrases : this.compiled.phrases;
          const key = first.replace(/\*$/, '');
          index.set(key, [...(index.get(key) ?? []), { words: parts, term, label }]);
        } else if (parts.length === 1 && isPlainWord(parts[0]!)) {
          const target = term.endsWith('*') ? this.compiled.stems : this.compiled.exact;
          const key = parts[0]!.replace(/\*$/, '');
          target.set(key, [...(target.get(key) ?? []), label]);
        } else {
          this.compiled.substrings.push({ term, label });
        }
      }
    }
    // Every stem length, however long ("wahrscheinlichkeit*" has 18 letters): a length never cut at is a term that never matches.
    const stemKeys = [...this.compiled.stems.keys(), ...this.compiled.stemPhrases.keys()];
    this.stemLengths = [...new Set(stemKeys.map((stem) => stem.length))].filter((length) => length >= 2).sort((left, right) => right - left);
  }

  /** `words`: the text's tokens when the caller already has them (`tokenize(text).words`), to skip a second pass. */
  match(text: string, tokens: readonly string[] = tokenize(text).words): LexiconMatches<Label> {
    const words = tokens.map(foldAccents);
    const found = new Map<Label, Set<string>>();
    const note = (label: Label, term: string): void => {
      const set = found.get(label) ?? new Set<string>();
      set.add(term);
      found.set(label, set);
    };
    const notePhrases = (phrases: readonly Phrase<Label>[] | undefined, index: number): void => {
      for (const phrase of phrases ?? []) if (phrase.words.every((part, offset) => matchesWord(words[index + offset], part))) note(phrase.label, phrase.term);
    };
    words.forEach((word, index) => {
      for (const label of this.compiled.exact.get(word) ?? []) note(label, word);
      for (const length of this.stemLengths) {
        if (length > word.length) continue;
        const stem = word.slice(0, length);
        for (const label of this.compiled.stems.get(stem) ?? []) note(label, `${stem}*`);
        notePhrases(this.compiled.stemPhrases.get(stem), index);
      }
      notePhrases(this.compiled.phrases.get(word), index);
      // Arabic clitics: a word no whole term matched may once they are off (one term per word, as for any word).
      if (word.charCodeAt(0) >= 0x621 && word.charCodeAt(0) <= 0x6cc && !this.compiled.exact.has(word)) {
        const stem = arabicStems(word).find((candidate) => this.compiled.exact.has(candidate));
        if (stem) for (const label of this.compiled.exact.get(stem)!) note(label, stem);
      }
    });
    if (this.compiled.substrings.length) {
      const normalized = normalizeText(text);
      for (const { term, label } of this.compiled.substrings) if (normalized.includes(term)) note(label, term);
    }
    return new Map([...found].map(([label, terms]) => [label, [...terms]]));
  }
}

function matchesWord(word: string | undefined, part: string): boolean {
  if (word === undefined) return false;
  return part.endsWith('*') ? word.startsWith(part.slice(0, -1)) : word === part;
}
