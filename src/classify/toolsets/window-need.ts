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
}

/** Words of the instruction (negated and quoted words are already blanked), punctuation-only pieces dropped. */
export function instructionWords(instruction: string): string[] {
  return instruction.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
}

/** The overlapping windows of `words` words (half-overlapping; a shorter text is one window). */
export function wordWindows(words: readonly string[], size: number): string[] {
  if (words.length === 0) return [];
  const stride = Math.max(1, Math.floor(size / 2));
  const windows: string[] = [];
  for (let start = 0; ; start += stride) {
    windows.push(words.slice(start, start + size).join(' '));
    if (start + size >= words.length) break;
  }
  return windows;
}

/**
 * Toolsets among `candidates` that some window asks for: toolset → its best window probability. Each window is one
 * model evaluation, so the caller bounds the text's length.
 */
export function windowNeeds(words: readonly string[], scorer: ClauseScorer, candidates: ReadonlySet<string>, taskLabel: string, options: WindowNeedOptions): Map<string, number> {
  const found = new Map<string, number>();
  if (options.bar >= 1 || words.length <= options.words) return found;
  const taskIndex = scorer.labels.indexOf(taskLabel);
  for (const window of wordWindows(words, options.words)) {
    const probabilities = scorer.predict(window);
    if (taskIndex >= 0 && probabilities[taskIndex]! < options.taskBar) continue;
    scorer.labels.forEach((label, index) => {
      const probability = probabilities[index]!;
      if (candidates.has(label) && probability >= options.bar) found.set(label, Math.max(found.get(label) ?? 0, probability));
    });
  }
  return found;
}
