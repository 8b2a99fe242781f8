import { createHash } from 'node:crypto';
import { countTokensYielding, encodedLength } from '../classify/text/o200k.js';

const cache = new Map<string, number>();
const cacheLimit = 256;

/**
 * o200k tokens of a tools array's exact JSON serialisation. Tokenizing 60 KB takes milliseconds, so this is
 * never on the decision path: results are cached by a content hash, and agents send the same arrays again.
 */
export function countToolsTokens(tools: readonly unknown[]): number {
  return countSerializedTokens(JSON.stringify(tools));
}

export function countSerializedTokens(serialized: string): number {
  const key = cacheKey(serialized);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  return remember(key, encodedLength(serialized));
}

/** The same count without holding the event loop (`countTokensYielding`): what a serving gateway calls. */
export async function countToolsTokensYielding(tools: readonly unknown[]): Promise<number> {
  const serialized = JSON.stringify(tools);
  const key = cacheKey(serialized);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  return remember(key, await countTokensYielding(serialized));
}

function cacheKey(serialized: string): string {
  return createHash('sha256').update(serialized).digest('base64');
}

function remember(key: string, count: number): number {
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(key, count);
  return count;
}
