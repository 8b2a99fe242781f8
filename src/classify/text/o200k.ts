import { createRequire } from 'node:module';

type Tokenizer = typeof import('gpt-tokenizer');

const require = createRequire(import.meta.url);
let tokenizer: Tokenizer | undefined;

/**
 * gpt-tokenizer's o200k encoding, loaded on first use. Its tables cost about 69 MB of memory and a few hundred
 * milliseconds to load, and an idle gateway needs none of it; the first request with tools (schema token counts
 * for the ledger) or the first usage estimate loads it, synchronously. One instance for every caller: two copies
 * of the tables (the package's ESM and CommonJS builds, or two encodings) would double the cost.
 */
function o200k(): Tokenizer {
  tokenizer ??= require('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

/** o200k tokens of `text`. */
export function countTokens(text: string): number {
  return o200k().countTokens(text);
}

/** o200k tokens of `text`, counted as `encode(text).length` (special-token text is an error, as in encode). */
export function encodedLength(text: string): number {
  return o200k().encode(text).length;
}
