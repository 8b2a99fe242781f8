import type { FramedToken } from '../features/scopes.js';
import { frameTokens } from '../features/scopes.js';
import { wordHash } from './word-clusters-file.js';

/**
 * The terms the neighbour index compares messages by (neighbour-index.ts), for the builder and the runtime alike:
 * every word of the normalised message as a hash, and a run of a script written without spaces as its character
 * pairs. Words only: a neighbour is found by the rare words two messages share, and adding pairs of words (measured
 * offline on the unseen checks) found no more of the misses for more postings.
 * Frames are ignored on purpose: "don't search, just open the file" has neighbours labelled by writers who read
 * the whole message too.
 */
export function neighbourTerms(text: string, tokens: readonly FramedToken[] = frameTokens(text)): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (term: string): void => {
    const hash = wordHash(term);
    counts.set(hash, (counts.get(hash) ?? 0) + 1);
  };
  for (const token of tokens) {
    if (token.unspaced) {
      for (let index = 0; index + 1 < token.text.length; index += 1) add(token.text.slice(index, index + 2));
      if (token.text.length === 1) add(token.text);
    } else if (/[\p{L}\p{N}]/u.test(token.text)) add(token.text);
  }
  return counts;
}
