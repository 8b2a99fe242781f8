import { tokenize } from '../text/tokens.js';

/**
 * Nearest example by IDF-weighted word cosine, per route. This is the out-of-scope gate that still works
 * when a config gives a single route and no negative examples: a softmax over one route is always confident,
 * but a request sharing no meaningful words with any example of that route is not in its scope.
 */
export class NearestExampleIndex {
  private readonly postings = new Map<string, { example: number; weight: number }[]>();
  private readonly idf = new Map<string, number>();
  private readonly exampleRoute: number[] = [];
  private readonly exampleCount: number;
  private readonly scratch: Float64Array;
  /** Posting lists longer than this (a word in more than an eighth of all examples) are not walked: their low IDF adds little and walking them dominates the cost. */
  private readonly maxPostings: number;

  constructor(examples: readonly { text: string; route: number }[]) {
    this.exampleCount = examples.length;
    this.scratch = new Float64Array(examples.length);
    this.maxPostings = Math.max(64, Math.floor(examples.length / 8));
    const termSets = examples.map((example) => new Set(terms(example.text)));
    const documentFrequency = new Map<string, number>();
    for (const set of termSets) for (const term of set) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    for (const [term, frequency] of documentFrequency) this.idf.set(term, Math.log((this.exampleCount + 1) / (frequency + 1)) + 1);
    termSets.forEach((set, exampleIndex) => {
      this.exampleRoute.push(examples[exampleIndex]!.route);
      const weights = [...set].map((term) => [term, this.idf.get(term) ?? 0] as const);
      const norm = Math.sqrt(weights.reduce((sum, [, weight]) => sum + weight * weight, 0)) || 1;
      for (const [term, weight] of weights) {
        const list = this.postings.get(term) ?? [];
        list.push({ example: exampleIndex, weight: weight / norm });
        this.postings.set(term, list);
      }
    });
  }

  /** The highest cosine similarity between the text and any example of each route (index = route). */
  bestSimilarityByRoute(text: string, routeCount: number): number[] {
    const queryTerms = [...new Set(terms(text))];
    // Unknown words get the IDF of a term seen once: they dilute the similarity as they should.
    const unseenIdf = Math.log((this.exampleCount + 1) / 2) + 1;
    const queryWeights = queryTerms.map((term) => this.idf.get(term) ?? unseenIdf);
    const queryNorm = Math.sqrt(queryWeights.reduce((sum, weight) => sum + weight * weight, 0)) || 1;
    const touched: number[] = [];
    queryTerms.forEach((term, index) => {
      const postings = this.postings.get(term);
      if (!postings || postings.length > this.maxPostings) return;
      const queryWeight = queryWeights[index]! / queryNorm;
      for (const posting of postings) {
        if (this.scratch[posting.example] === 0) touched.push(posting.example);
        this.scratch[posting.example]! += queryWeight * posting.weight;
      }
    });
    const best = new Array<number>(routeCount).fill(0);
    for (const example of touched) {
      const route = this.exampleRoute[example]!;
      if (this.scratch[example]! > best[route]!) best[route] = this.scratch[example]!;
      this.scratch[example] = 0;
    }
    return best;
  }
}

/**
 * Function words carry no scope. With a handful of examples IDF cannot tell (a word seen once looks rare), so
 * the common English ones are dropped before indexing.
 */
const stopWords = new Set(
  'a an the is are was were be been am to of in on at by for from with as and or but if then so not no i me my mine you your we our us it its this that these those what which who whom how when where why do does did can could would should will shall may might must please there here some any just about into out up'.split(' '),
);

function terms(text: string): string[] {
  const { words, unspacedGrams } = tokenize(text);
  return [...words.filter((word) => !stopWords.has(word)), ...unspacedGrams];
}
