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
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');
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
