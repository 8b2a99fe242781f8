import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BytePairRanks } from './byte-pair-ranks.js';

const require = createRequire(import.meta.url);

interface O200k {
  ranks: BytePairRanks;
  /** gpt-tokenizer's o200k pre-tokenizer, the very RegExp object (global, unicode). */
  split: RegExp;
  /** Matches any special-token text (`<|endoftext|>`…), which plain encoding refuses. */
  special: RegExp;
}

let loaded: O200k | undefined;

/**
 * o200k, loaded on first use: the ranks from gpt-tokenizer's own `o200k_base.tiktoken` into typed arrays (about
 * 4 MB, a fraction of a second), the pre-tokenizer and special tokens from gpt-tokenizer's small modules. Its full
 * encoder would hold the ranks as 200,000 strings in a Map (~15 MB of heap, ~50 MB of RSS after compiling its
 * 2 MB rank script) for counts this gateway only needs as numbers. Counts equal gpt-tokenizer's `encode(text)
 * .length` and `countTokens(text)` (a test checks them over the corpora), except in text holding U+FEFF: there
 * gpt-tokenizer's UTF-8 decoding drops the byte-order mark before its rank lookup, and this counts the bytes as
 * tiktoken does. An idle gateway loads none of it.
 */
function o200k(): O200k {
  loaded ??= withSplitters(BytePairRanks.fromTiktokenFile(ranksPath()));
  return loaded;
}

let loading: Promise<O200k> | undefined;

/** The ranks read and decoded in slices that yield (`BytePairRanks.fromTiktokenFileYielding`): the serving gateway's way. */
function o200kYielding(sliceMs: number): Promise<O200k> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= BytePairRanks.fromTiktokenFileYielding(ranksPath(), sliceMs).then((ranks) => {
    // A synchronous caller (the CLI, an estimate) may have loaded it meanwhile: keep one table.
    loaded ??= withSplitters(ranks);
    return loaded;
  });
  return loading;
}

/** Whether the tables are in memory, so `countTokens` will not stop to read them. */
export function o200kLoaded(): boolean {
  return loaded !== undefined;
}

/** Loads the tables in slices that yield (the same load `countTokensYielding` starts); resolves when they are in. */
export async function loadO200kYielding(sliceMs = 2): Promise<void> {
  await o200kYielding(sliceMs);
}

function ranksPath(): string {
  return require.resolve('gpt-tokenizer/data/o200k_base.tiktoken');
}

function withSplitters(ranks: BytePairRanks): O200k {
  const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/cjs/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp };
  const specialTokens = require('gpt-tokenizer/cjs/specialTokens') as Record<string, string>;
  const texts = ['EndOfText', 'FimPrefix', 'FimMiddle', 'FimSuffix', 'ImStart', 'ImEnd', 'ImSep', 'EndOfPrompt'].map((name) => specialTokens[name]);
  if (texts.some((text) => typeof text !== 'string')) throw new Error('gpt-tokenizer: o200k special tokens not found');
  return {
    ranks,
    split: O200K_TOKEN_SPLIT_REGEX,
    special: new RegExp(`(${(texts as string[]).map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`),
  };
}

const encoder = new TextEncoder();
let buffer = new Uint8Array(1024);
/** Pieces seen lately → their token count: agents resend the same words, schemas and prompts. */
const pieceCounts = new Map<string, number>();
const pieceCountLimit = 20_000;

/** o200k tokens of `text`. Special-token text is an error, as in gpt-tokenizer's `countTokens`. */
export function countTokens(text: string): number {
  const { ranks, split, special } = o200k();
  const refused = special.exec(text);
  if (refused) throw new Error(`Disallowed special token found: ${refused[0]}`);
  let count = 0;
  for (const [piece] of text.matchAll(split)) count += pieceTokens(ranks, piece);
  return count;
}

/**
 * The same count as `countTokens`, for a process that is serving requests: the tables load without blocking (see
 * `o200kYielding`) and the text is counted in slices of at most `sliceMs`, each followed by a turn of the event
 * loop. A 60 KB tool schema is a few milliseconds of counting, the first load a quarter of a second or (on a
 * loaded machine) a second: in one piece, either held every other request and a cluster peer's messages.
 */
export async function countTokensYielding(text: string, sliceMs = 2): Promise<number> {
  const { ranks, split, special } = loaded ?? (await o200kYielding(sliceMs));
  const refused = special.exec(text);
  if (refused) throw new Error(`Disallowed special token found: ${refused[0]}`);
  let count = 0;
  let sliceStarted = performance.now();
  let pieces = 0;
  for (const [piece] of text.matchAll(split)) {
    count += pieceTokens(ranks, piece);
    pieces += 1;
    if ((pieces & 255) === 0 && performance.now() - sliceStarted >= sliceMs) {
      await nextTurn();
      sliceStarted = performance.now();
    }
  }
  return count;
}

/** o200k tokens of `text`, counted as `encode(text).length` (the same number as `countTokens`). */
export function encodedLength(text: string): number {
  return countTokens(text);
}

function pieceTokens(ranks: BytePairRanks, piece: string): number {
  const cached = pieceCounts.get(piece);
  if (cached !== undefined) return cached;
  if (buffer.length < piece.length * 3) buffer = new Uint8Array(piece.length * 3);
  const length = encoder.encodeInto(piece, buffer).written;
  const count = ranks.rankOf(buffer, 0, length) >= 0 ? 1 : mergedLength(ranks, buffer, length);
  // Long pieces (runs of spaces, minified data) are rare and would make the cache's size unbounded in bytes.
  if (piece.length > 128) return count;
  if (pieceCounts.size >= pieceCountLimit) pieceCounts.delete(pieceCounts.keys().next().value!);
  pieceCounts.set(piece, count);
  return count;
}

/**
 * tiktoken's byte-pair merge, counting the parts: start from single bytes and merge, again and again, the
 * adjacent pair whose joined bytes have the lowest rank (the leftmost on a tie) until no pair is a token.
 */
function mergedLength(ranks: BytePairRanks, bytes: Uint8Array, length: number): number {
  // starts[i] is where part i begins; part i ends where part i + 1 begins (starts[parts] = length).
  const starts: number[] = [];
  for (let index = 0; index <= length; index += 1) starts.push(index);
  const pairRank = (part: number): number => (part + 2 < starts.length ? ranks.rankOf(bytes, starts[part]!, starts[part + 2]!) : -1);
  const pairRanks: number[] = [];
  for (let part = 0; part + 1 < starts.length; part += 1) pairRanks.push(pairRank(part));
  for (;;) {
    let lowest = -1;
    let lowestPart = -1;
    for (let part = 0; part < pairRanks.length; part += 1) {
      const rank = pairRanks[part]!;
      if (rank >= 0 && (lowest < 0 || rank < lowest)) {
        lowest = rank;
        lowestPart = part;
      }
    }
    if (lowestPart < 0) break;
    starts.splice(lowestPart + 1, 1);
    pairRanks.splice(lowestPart + 1, 1);
    pairRanks[lowestPart] = pairRank(lowestPart);
    if (lowestPart > 0) pairRanks[lowestPart - 1] = pairRank(lowestPart - 1);
  }
  return starts.length - 1;
}
