import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexInSorted } from '../linear/sorted-search.js';
import { packageRoot } from './model-file.js';
import type { NeighbourTable } from './neighbour-index-file.js';
import { decodeNeighbourTable } from './neighbour-index-file.js';

/** Where the shipped index lives (written by scripts/tool-routing/build-neighbours.ts from the training writers). */
export const neighboursRelativePath = 'data/tool-routing/toolset-neighbours.bin';

/**
 * The training messages most like a new one, by TF-IDF cosine over their words (neighbour-terms.ts), and what their
 * writers labelled them. The linear model sums evidence word by word; a neighbour is a whole message, so it carries
 * the judgement of writers who wrote nearly this request (a generated picture to be set as the wallpaper needs the
 * shell too) where the model's weights for each word alone do not reach a toolset's bar. One query walks the posting lists of the
 * message's terms (none longer than 1% of the documents) and keeps the best few.
 */
export class NeighbourIndex {
  readonly #table: NeighbourTable;
  readonly #scores: Float32Array;
  readonly #touched: Uint32Array;
  /** 1 / each document's norm: the per-posting work is a multiply, not a divide. */
  readonly #inverseNorms: Float32Array;
  readonly labels: readonly string[];
  readonly size: number;

  constructor(table: NeighbourTable) {
    this.#table = table;
    this.#scores = new Float32Array(table.norms.length);
    this.#touched = new Uint32Array(table.norms.length);
    this.#inverseNorms = table.norms.map((norm) => (norm > 0 ? 1 / norm : 0));
    this.labels = table.labels;
    this.size = table.norms.length;
  }

  /**
   * Each label's share of the summed similarity of the `count` most similar documents (0 to 1); empty when the
   * message shares no indexed term with any document.
   */
  vote(terms: ReadonlyMap<number, number>, count: number): Map<string, number> {
    const { terms: sortedTerms, idf, starts, documents, counts, documentLabels } = this.#table;
    const inverseNorms = this.#inverseNorms;
    const query: { index: number; weight: number }[] = [];
    for (const [term, occurrences] of terms) {
      const index = indexInSorted(sortedTerms, term);
      if (index < 0) continue;
      const weight = countWeights[Math.min(255, occurrences)]! * idf[index]!;
      query.push({ index, weight });
    }
    const votes = new Map<string, number>();
    if (query.length === 0) return votes;
    const scores = this.#scores;
    const touched = this.#touched;
    let touchedCount = 0;
    for (const { index, weight } of query) {
      const termWeight = weight * idf[index]!;
      for (let posting = starts[index]!, end = starts[index + 1]!; posting < end; posting += 1) {
        const document = documents[posting]!;
        if (scores[document] === 0) touched[touchedCount++] = document;
        scores[document]! += termWeight * countWeights[counts[posting]!]! * inverseNorms[document]!;
      }
    }
    const topDocuments: number[] = [];
    const topScores: number[] = [];
    for (let position = 0; position < touchedCount; position += 1) {
      const document = touched[position]!;
      const score = scores[document]!;
      scores[document] = 0;
      if (topScores.length === count && score <= topScores[count - 1]!) continue;
      let at = topScores.length === count ? count - 1 : topScores.length;
      while (at > 0 && topScores[at - 1]! < score) {
        topScores[at] = topScores[at - 1]!;
        topDocuments[at] = topDocuments[at - 1]!;
        at -= 1;
      }
      topScores[at] = score;
      topDocuments[at] = document;
    }
    // The query's own length would divide every score alike, so it is left out: shares do not depend on it.
    const total = topScores.reduce((sum, score) => sum + score, 0);
    if (total <= 0) return votes;
    topDocuments.forEach((document, rank) => {
      const bits = documentLabels[document]!;
      this.labels.forEach((label, bit) => {
        if (bits & (1 << bit)) votes.set(label, (votes.get(label) ?? 0) + topScores[rank]! / total);
      });
    });
    return votes;
  }
}

/** A term's weight for how often it occurs (1 + ln count, the build's sublinear TF), for counts 0–255. */
const countWeights = Float64Array.from({ length: 256 }, (_, count) => (count === 0 ? 0 : 1 + Math.log(count)));

let cached: NeighbourIndex | null | undefined;

/** The shipped index, loaded once; null when the file is absent (the classifier then runs without neighbours). */
export function loadNeighbourIndex(path?: string): NeighbourIndex | null {
  if (cached !== undefined) return cached;
  const file = path ?? join(packageRoot(), neighboursRelativePath);
  cached = existsSync(file) ? new NeighbourIndex(decodeNeighbourTable(readFileSync(file))) : null;
  return cached;
}
