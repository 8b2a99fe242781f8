import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** One upstream call's prompt, in the order a provider caches it: tools, then system prompt, then messages. */
export interface PromptParts {
  toolsJson: string;
  systemJson: string;
  messagesJson: string;
}

/** EVALS.md prices, relative to an uncached input token: a cache read, and a cache write (every uncached token). */
export const cachedTokenPrice = 0.1;
export const uncachedTokenPrice = 1.25;

export interface CallCacheCost {
  promptTokens: number;
  cachedTokens: number;
  /** cached × 0.10 + uncached × 1.25, in uncached-input-token units. */
  cost: number;
}

export interface CacheCostTotals {
  promptTokens: number;
  cachedTokens: number;
  cost: number;
}

/**
 * The prefix-cache cost model of `eval sessions` (EVALS.md): each part is serialised as sent and tokenised with
 * o200k, and the parts' tokens are concatenated. Tools arrays repeat across calls and runs, so their tokens are
 * kept in `memo` (keyed by the exact bytes).
 */
export function promptTokens(parts: PromptParts, memo: Map<string, Uint32Array>): Uint32Array {
  const pieces = [parts.toolsJson, parts.systemJson, parts.messagesJson].map((text) => tokensOf(text, memo));
  const joined = new Uint32Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}

function tokensOf(text: string, memo: Map<string, Uint32Array>): Uint32Array {
  const hit = memo.get(text);
  if (hit) return hit;
  const tokens = Uint32Array.from(encode(text));
  // Messages grow every call and are seen once; only the repeated, large tools arrays are worth keeping.
  if (text.length > 2_000) memo.set(text, tokens);
  return tokens;
}

function commonPrefix(left: Uint32Array, right: Uint32Array): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left[index] === right[index]) index += 1;
  return index;
}

/**
 * One scenario's calls in order: a call's cached tokens are its longest common token prefix with any earlier
 * call of the same scenario (no expiry), and every other token is written to the cache.
 */
export function scenarioCacheCosts(prompts: readonly Uint32Array[]): CallCacheCost[] {
  return prompts.map((prompt, index) => {
    let cachedTokens = 0;
    for (let earlier = 0; earlier < index && cachedTokens < prompt.length; earlier += 1) {
      cachedTokens = Math.max(cachedTokens, commonPrefix(prompt, prompts[earlier] as Uint32Array));
    }
    const uncached = prompt.length - cachedTokens;
    return { promptTokens: prompt.length, cachedTokens, cost: cachedTokens * cachedTokenPrice + uncached * uncachedTokenPrice };
  });
}

export function sumCacheCosts(costs: Iterable<CallCacheCost>): CacheCostTotals {
  const totals = { promptTokens: 0, cachedTokens: 0, cost: 0 };
  for (const cost of costs) {
    totals.promptTokens += cost.promptTokens;
    totals.cachedTokens += cost.cachedTokens;
    totals.cost += cost.cost;
  }
  return totals;
}
