import { createHash } from 'node:crypto';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ReceivedRequest } from './types.js';

/** The input side of a reply's usage as a caching provider reports it. */
export interface CachedInputUsage {
  /** OpenAI: every prompt token (`prompt_tokens`). Anthropic: the tokens neither read nor written (`input_tokens`). */
  inputTokens: number;
  /** OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`. */
  cacheReadTokens: number;
  /** Anthropic `cache_creation_input_tokens` (always 0 for OpenAI, which does not bill writes). */
  cacheWriteTokens: number;
  /** Of the writes, those with the 1-hour TTL (`cache_creation.ephemeral_1h_input_tokens`). */
  cacheWrite1hTokens: number;
}

export interface FakePromptCacheOptions {
  /** Milliseconds since the epoch; tests move it to expire entries. */
  now?: () => number;
  /** Anthropic: a breakpoint whose prefix is shorter is not cached (1,024 for Sonnet and Opus). */
  anthropicMinimumTokens?: number;
  /** OpenAI: how long an automatic prefix stays after its last use (5–10 minutes idle on the real API). */
  openAiRetentionMs?: number;
}

const fiveMinutes = 5 * 60_000;
const oneHour = 60 * 60_000;
/** Anthropic looks for an earlier cache entry at most this many blocks before a breakpoint. */
const lookbackBlocks = 20;
const openAiFirstPrefix = 1024;
const openAiStep = 128;

interface Block {
  /** Chained hash of every block up to and including this one. */
  hash: string;
  /** Tokens up to and including this block. */
  cumulativeTokens: number;
  /** This block carries `cache_control`: its TTL. */
  breakpointTtlMs?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A block as it is cached: its content, without the `cache_control` marker (moving a marker keeps the prefix). */
function withoutMarker(block: unknown): unknown {
  if (!isRecord(block) || !('cache_control' in block)) return block;
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

function ttlOf(block: unknown): number | undefined {
  if (!isRecord(block) || !isRecord(block.cache_control)) return undefined;
  return block.cache_control.ttl === '1h' ? oneHour : fiveMinutes;
}

/**
 * A provider's prompt cache, kept the way the real ones keep it, for the fake upstream (tests and benchmarks).
 *
 * Anthropic format: the prompt is tools, then system, then messages, as blocks (each tool, each system text block,
 * each message content block). Only a block with `cache_control` writes an entry: the prefix ending there, if it
 * has at least `anthropicMinimumTokens`, with its TTL (5 minutes, or 1 hour for `ttl: "1h"`). A breakpoint reads
 * the longest unexpired entry ending at it or up to 20 blocks before it; a read refreshes the entry's TTL.
 *
 * OpenAI format: no hints needed. Prompts of 1,024+ tokens are cached automatically at 1,024 tokens and every
 * 128 tokens after; `cached_tokens` is the longest cached boundary. `prompt_cache_key` is recorded by the real
 * API to route requests to the same machine under load; a single-process fake has one machine, so it has no effect
 * here (a test asserts the gateway sends it, not that it helps).
 *
 * Caches are per API key and model, as a deployment's are. Tokens are o200k counts of each block's JSON: close
 * to, not equal to, a provider's own tokenizer.
 */
export class FakePromptCache {
  private readonly entries = new Map<string, { expiresAt: number; ttlMs: number }>();
  private readonly tokenMemo = new Map<string, number>();
  private readonly now: () => number;
  private readonly anthropicMinimum: number;
  private readonly openAiRetention: number;

  constructor(options: FakePromptCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.anthropicMinimum = options.anthropicMinimumTokens ?? 1024;
    this.openAiRetention = options.openAiRetentionMs ?? fiveMinutes;
  }

  /** The input usage of this request, and the cache updated as the provider would. */
  usageFor(request: ReceivedRequest): CachedInputUsage {
    const body = isRecord(request.json) ? request.json : {};
    const headers = request.headers;
    const key = String(headers['x-api-key'] ?? headers.authorization ?? '');
    const namespace = `${request.format}\u0000${key}\u0000${request.model ?? ''}`;
    return request.format === 'anthropic-messages' ? this.anthropic(namespace, body) : this.openAi(namespace, body);
  }

  clear(): void {
    this.entries.clear();
  }

  private lookup(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return false;
    }
    entry.expiresAt = now + entry.ttlMs;
    return true;
  }

  private store(key: string, ttlMs: number, now: number): void {
    const existing = this.entries.get(key);
    const longest = Math.max(ttlMs, existing && existing.expiresAt > now ? existing.ttlMs : 0);
    this.entries.set(key, { expiresAt: now + longest, ttlMs: longest });
  }

  private tokens(text: string): number {
    const hit = this.tokenMemo.get(text);
    if (hit !== undefined) return hit;
    const count = encode(text).length;
    if (this.tokenMemo.size > 4096) this.tokenMemo.clear();
    this.tokenMemo.set(text, count);
    return count;
  }

  private anthropicBlocks(namespace: string, body: Record<string, unknown>): Block[] {
    const raw: unknown[] = [];
    if (Array.isArray(body.tools)) raw.push(...body.tools);
    if (typeof body.system === 'string') raw.push({ type: 'text', text: body.system });
    else if (Array.isArray(body.system)) raw.push(...body.system);
    for (const message of Array.isArray(body.messages) ? body.messages : []) {
      if (!isRecord(message)) continue;
      const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
      // The role is part of what is cached: the same words from the assistant are a different prompt.
      content.forEach((block, index) => raw.push(index === 0 ? { role: message.role, ...(isRecord(block) ? block : { value: block }) } : block));
    }
    const blocks: Block[] = [];
    let hash = createHash('sha256').update(namespace).digest('hex');
    let cumulative = 0;
    for (const block of raw) {
      const text = JSON.stringify(withoutMarker(block));
      hash = createHash('sha256').update(hash).update(text).digest('hex');
      cumulative += this.tokens(text);
      const ttl = ttlOf(block);
      blocks.push({ hash, cumulativeTokens: cumulative, ...(ttl !== undefined ? { breakpointTtlMs: ttl } : {}) });
    }
    return blocks;
  }

  private anthropic(namespace: string, body: Record<string, unknown>): CachedInputUsage {
    const now = this.now();
    const blocks = this.anthropicBlocks(namespace, body);
    const total = blocks.at(-1)?.cumulativeTokens ?? 0;
    const breakpoints = blocks.flatMap((block, index) => (block.breakpointTtlMs !== undefined ? [index] : []));
    let read = 0;
    for (const index of breakpoints) {
      for (let candidate = index; candidate >= Math.max(0, index - lookbackBlocks + 1); candidate -= 1) {
        const block = blocks[candidate] as Block;
        if (block.cumulativeTokens <= read) break;
        if (this.lookup(block.hash, now)) {
          read = block.cumulativeTokens;
          break;
        }
      }
    }
    let written = 0;
    let written1h = 0;
    let covered = read;
    for (const index of breakpoints) {
      const block = blocks[index] as Block;
      if (block.cumulativeTokens <= covered || block.cumulativeTokens < this.anthropicMinimum) continue;
      const ttl = block.breakpointTtlMs ?? fiveMinutes;
      const segment = block.cumulativeTokens - covered;
      written += segment;
      if (ttl === oneHour) written1h += segment;
      covered = block.cumulativeTokens;
      this.store(block.hash, ttl, now);
    }
    return { inputTokens: total - covered, cacheReadTokens: read, cacheWriteTokens: written, cacheWrite1hTokens: written1h };
  }

  private openAi(namespace: string, body: Record<string, unknown>): CachedInputUsage {
    const now = this.now();
    const tokens = Uint32Array.from([...encode(JSON.stringify(body.tools ?? [])), ...encode(JSON.stringify(body.messages ?? []))]);
    const total = tokens.length;
    const retention = body.prompt_cache_retention === '24h' ? 24 * oneHour : this.openAiRetention;
    let hash = createHash('sha256').update(namespace).digest('hex');
    let cached = 0;
    let missed = false;
    for (let end = openAiFirstPrefix, start = 0; end <= total; start = end, end += openAiStep) {
      hash = createHash('sha256').update(hash).update(Buffer.from(tokens.buffer, start * 4, (end - start) * 4)).digest('hex');
      if (!missed && this.lookup(hash, now)) cached = end;
      else {
        missed = true;
        this.store(hash, retention, now);
      }
    }
    return { inputTokens: total, cacheReadTokens: cached, cacheWriteTokens: 0, cacheWrite1hTokens: 0 };
  }
}
