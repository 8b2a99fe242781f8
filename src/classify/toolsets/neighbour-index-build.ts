import type { NeighbourTable } from './neighbour-index-file.js';

export interface NeighbourDocument {
  /** Term hash → count (neighbourTerms). */
  terms: ReadonlyMap<number, number>;
  /** The toolsets the message needs: its required toolsets and every member of its `required_any` groups. */
  toolsets: readonly string[];
}

/**
 * Builds the index of labelled messages the classifier's neighbour vote reads (neighbour-index.ts). A term in more
 * than `maximumDocumentShare` of the documents is dropped: its posting list is the cost of a query, and a word that
 * common names no neighbour (at 1% the unseen checks lose nothing against keeping every term).
 */
export function buildNeighbourTable(documents: readonly NeighbourDocument[], labels: readonly string[], options: { maximumDocumentShare: number; source: string }): NeighbourTable {
  if (labels.length > 32) throw new Error('toolset neighbours: at most 32 labels (a document keeps them as bits)');
  const labelBit = new Map(labels.map((label, index) => [label, index]));
  const frequency = new Map<number, number>();
  for (const document of documents) for (const term of document.terms.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const limit = options.maximumDocumentShare * documents.length;
  const terms = Uint32Array.from([...frequency].filter(([, count]) => count <= limit).map(([term]) => term)).sort();
  const position = new Map<number, number>();
  terms.forEach((term, index) => position.set(term, index));
  const idf = Float32Array.from(terms, (term) => Math.log((1 + documents.length) / (1 + frequency.get(term)!)) + 1);
  const starts = new Uint32Array(terms.length + 1);
  for (const document of documents) for (const term of document.terms.keys()) if (position.has(term)) starts[position.get(term)! + 1]! += 1;
  for (let index = 0; index < terms.length; index += 1) starts[index + 1]! += starts[index]!;
  const postingDocuments = new Uint32Array(starts[terms.length]!);
  const counts = new Uint8Array(postingDocuments.length);
  const filled = starts.slice(0, terms.length);
  const norms = new Float32Array(documents.length);
  const documentLabels = new Uint32Array(documents.length);
  documents.forEach((document, documentIndex) => {
    let squares = 0;
    for (const [term, count] of document.terms) {
      const index = position.get(term);
      if (index === undefined) continue;
      const slot = filled[index]!++;
      postingDocuments[slot] = documentIndex;
      counts[slot] = Math.min(255, count);
      const weight = (1 + Math.log(Math.min(255, count))) * idf[index]!;
      squares += weight * weight;
    }
    norms[documentIndex] = Math.sqrt(squares);
    let bits = 0;
    for (const toolset of document.toolsets) {
      const bit = labelBit.get(toolset);
      if (bit !== undefined) bits |= 1 << bit;
    }
    documentLabels[documentIndex] = bits >>> 0;
  });
  return { labels, terms, idf, starts, norms, documentLabels, documents: postingDocuments, counts, about: { source: options.source, maximumDocumentShare: options.maximumDocumentShare } };
}
