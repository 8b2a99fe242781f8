/**
 * The second need of a multi-need message ("find the cheapest flight and remind me on Friday to book it"). Scored
 * as a whole, the message's first need is sure and its second often scores under 1% (its words are a minority of
 * the features): the most common miss left on unseen writers. Each coordinated clause is scored alone and its
 * single most probable toolset comes along when that clause, read alone, asks for it clearly.
 *
 * One toolset per clause, not every toolset over a bar: scoring clauses alone and keeping everything over the
 * ordinary bars (measured before, src/tools/ARCHITECTURE.md) cost 3.5 points of cli median reduction.
 *
 * The markers are coordination in the languages the rule lexicons cover: sentence ends, list items, "and
 * (also/then)", "then", "also", "plus", "after that" and their equivalents. General vocabulary, no corpus line.
 */

/** Clause boundaries at punctuation and line breaks (list items start on a new line). */
const punctuation = /[.!?;\n。！？；]+(?:\s|$)|[。！？；\n]/u;

const spacedMarkers = [
  'and then', 'and also', 'and', 'also', 'then', 'plus', 'after that', 'afterwards', 'as well as', 'oh and', 'while you', 'meanwhile', 'finally', 'lastly', 'next',
  'y también', 'y luego', 'y después', 'además', 'luego', 'después', 'e também', 'e depois', 'depois', 'também', 'et aussi', 'et puis', 'et', 'puis', 'ensuite', 'aussi',
  'und auch', 'und dann', 'und', 'dann', 'danach', 'außerdem', 'e anche', 'e poi', 'poi', 'inoltre', 'en ook', 'en dan', 'daarna', 'ook', 'i też', 'a potem', 'potem', 'oraz', 'także',
  'а также', 'и ещё', 'и еще', 'потом', 'затем', 'также', 'також', 'потім', 've ayrıca', 'sonra', 'ayrıca', 'dan juga', 'lalu', 'kemudian', 'terus', 'juga',
  'và', 'sau đó', 'rồi', 'cũng', 'aur', 'phir',
];
const spacedMarker = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${spacedMarkers.map((marker) => marker.replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{M}\\p{N}])`, 'gu');
/** Scripts without spaces: the markers split wherever they stand. */
const unspacedMarker = /还有|然后|另外|顺便|并且|同时|再帮我|再把|之后|それから|あと|ついでに|そして|また|그리고|그 다음|또한|다음에|และ|แล้วก็|ثم|وأيضا/gu;

// One-letter and two-letter conjunctions (y, e, i, и, en, ve, dan) are English words or parts of words elsewhere
// ("i", "en", "dan"); the longer markers and punctuation carry those languages' clauses.

/**
 * The clauses of a message worth scoring alone (at least two words or four unspaced characters), in order. A
 * message with one clause returns one.
 */
export function needClauses(instruction: string): string[] {
  const pieces: string[] = [];
  for (const sentence of instruction.split(punctuation)) {
    for (const part of sentence.replace(spacedMarker, '\u0000').replace(unspacedMarker, '\u0000').split('\u0000')) {
      const text = part.trim();
      if (text) pieces.push(text);
    }
  }
  return pieces.filter((piece) => /\S+\s+\S+/u.test(piece) || /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{4}/u.test(piece));
}

export interface ClauseScorer {
  /** Probabilities of the model's labels for a text read alone. */
  predict(text: string): ArrayLike<number>;
  labels: readonly string[];
}

export interface ClauseNeeds {
  /** Per clause, its most probable toolset when the clause alone gives it at least the bar: toolset → probability. */
  top: Map<string, number>;
  /** Every candidate's best probability over the clauses that need a tool (evidence for the surface budget). */
  maxima: Map<string, number>;
}

/**
 * Scores each clause of a multi-clause message alone (a message with one clause scores nothing). A clause counts
 * when it needs a tool (its `taskLabel` probability at least 0.5); its most probable toolset among `candidates`
 * (the available toolsets the model knows) goes to `top` when it reaches `bar` (1 or more: none). At most
 * `maximumClauses` clauses are scored (each is one model evaluation).
 */
export function secondNeeds(clauses: readonly string[], scorer: ClauseScorer, candidates: ReadonlySet<string>, taskLabel: string, bar: number, maximumClauses = 6): ClauseNeeds {
  const top = new Map<string, number>();
  const maxima = new Map<string, number>();
  if (clauses.length < 2) return { top, maxima };
  const taskIndex = scorer.labels.indexOf(taskLabel);
  for (const clause of clauses.slice(0, maximumClauses)) {
    const probabilities = scorer.predict(clause);
    if (taskIndex >= 0 && probabilities[taskIndex]! < 0.5) continue;
    let best = '';
    let bestProbability = 0;
    scorer.labels.forEach((label, index) => {
      if (!candidates.has(label)) return;
      const probability = probabilities[index]!;
      maxima.set(label, Math.max(maxima.get(label) ?? 0, probability));
      if (probability > bestProbability) {
        best = label;
        bestProbability = probability;
      }
    });
    if (best && bar < 1 && bestProbability >= bar) top.set(best, Math.max(top.get(best) ?? 0, bestProbability));
  }
  return { top, maxima };
}
