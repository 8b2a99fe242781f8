import { unspacedCharacter } from '../features/normalize.js';
import type { ClauseScorer } from './second-need.js';

/**
 * Needs that only a few words of the message ask for. Scored as a whole, a message's minority need gets a small
 * share of the features (each is weighted 1/√n) and often scores under 1%: "paint a poster for the fair, then copy it
 * to ~/flyers/poster.png" is image_gen to the whole-message model, the terminal to copy the file is lost. The
 * coordinated clauses of second-need.ts catch the asks joined by "and" or a sentence end; this catches the rest
 * ("— visit each link", a relative clause, an ask inside a comma list) by sliding a window of a few words over the
 * instruction and reading each window alone.
 *
 * A window is a fragment, so its scores are sharper than a message's and noisier: on the frozen blind sets a bar of
 * 0.8 added about eighty unneeded toolsets per recovered need. So the bars are high, for the window's "needs a tool"
 * output as well as for the toolset (measured: src/tools/ARCHITECTURE.md, "Eighteenth session").
 */
export interface WindowNeedOptions {
  /** Words per window; windows overlap by half. */
  words: number;
  /** A toolset a window gives at least this is needed. */
  bar: number;
  /** Only windows whose "needs a tool" probability reaches this are read. */
  taskBar: number;
  /**
   * Text in a script written without spaces (Chinese, Japanese, Thai) counts one word per this many characters, so
   * a message in it is read in windows too; 0 or absent: a run without spaces is one word.
   */
  unspacedCharacters?: number;
}

/** A word of the instruction, or a piece of one (`continues`: no space before it, the rest of the word before). */
export interface WindowWord {
  text: string;
  continues: boolean;
}

/**
 * Words of the instruction (negated and quoted words are already blanked), punctuation-only pieces dropped. With
 * `unspacedCharacters`, a word holding a script written without spaces is cut before every that-many-th character of
 * it, so such a message is read in windows too.
 */
export function instructionWords(instruction: string, unspacedCharacters = 0): WindowWord[] {
  const words = instruction.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
  return words.flatMap((word) => (unspacedCharacters > 0 && unspacedCharacter.test(word) ? unspacedPieces(word, unspacedCharacters) : [{ text: word, continues: false }]));
}

function unspacedPieces(word: string, size: number): WindowWord[] {
  const pieces: WindowWord[] = [];
  let current = '';
  let unspacedInCurrent = 0;
  for (const character of word) {
    if (unspacedCharacter.test(character)) {
      if (unspacedInCurrent === size) {
        pieces.push({ text: current, continues: pieces.length > 0 });
        current = '';
        unspacedInCurrent = 0;
      }
      unspacedInCurrent += 1;
    }
    current += character;
  }
  if (current) pieces.push({ text: current, continues: pieces.length > 0 });
  return pieces;
}

/** The overlapping windows of `size` words (half-overlapping; a shorter text is one window). */
export function wordWindows(words: readonly WindowWord[], size: number): string[] {
  if (words.length === 0) return [];
  const stride = Math.max(1, Math.floor(size / 2));
  const windows: string[] = [];
  for (let start = 0; ; start += stride) {
    // Pieces of one word are glued back: the model reads a run without spaces whole (character n-grams).
    windows.push(words.slice(start, start + size).map((word, index) => (index === 0 || word.continues ? word.text : ` ${word.text}`)).join(''));
    if (start + size >= words.length) break;
  }
  return windows;
}

/**
 * Toolsets some window asks for: those whose best window probability (`windowMaxima`) reaches `bar`, with it. None at
 * a bar of 1 (windows off).
 */
export function windowNeeds(maxima: ReadonlyMap<string, number>, bar: number): Map<string, number> {
  return new Map(bar >= 1 ? [] : [...maxima].filter(([, probability]) => probability >= bar));
}

/**
 * Each candidate's best probability over the windows read (those whose "needs a tool" output reaches the task bar),
 * whatever the bar: what `windowNeeds` selects from, and the evidence a part of the message gives a need
 * (`thresholds.part_vote`). Empty for a message of one window. Each window is one model evaluation, so the caller
 * bounds the text's length.
 */
export function windowMaxima(words: readonly WindowWord[], scorer: ClauseScorer, candidates: ReadonlySet<string>, taskLabel: string, options: Pick<WindowNeedOptions, 'words' | 'taskBar'>): Map<string, number> {
  const maxima = new Map<string, number>();
  if (words.length <= options.words) return maxima;
  const taskIndex = scorer.labels.indexOf(taskLabel);
  for (const window of wordWindows(words, options.words)) {
    const probabilities = scorer.predict(window);
    if (taskIndex >= 0 && probabilities[taskIndex]! < options.taskBar) continue;
    scorer.labels.forEach((label, index) => {
      if (candidates.has(label)) maxima.set(label, Math.max(maxima.get(label) ?? 0, probabilities[index]!));
    });
  }
  return maxima;
}
