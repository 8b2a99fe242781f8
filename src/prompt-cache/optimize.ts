import type { PromptCacheConfig, PromptCacheTtl } from '../config/prompt-cache.js';
import { createHash } from 'node:crypto';
import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { PromptCacheDecision } from '../core/route-decision.js';
import { wireFormat } from '../wire/formats.js';
import { addAnthropicBreakpoints } from './anthropic-breakpoints.js';
import { clientSetCacheHints } from './client-hints.js';
import { addContentPartBreakpoints } from './openrouter-breakpoints.js';

export interface CacheTarget {
  /** The upstream API the body is for. */
  format: ApiFormat;
  /** The provider's configured kind (`openai`, `openrouter`, `anthropic`…). */
  providerKind: string | undefined;
  upstreamModel: string;
}

/** OpenRouter and similar APIs take Anthropic's breakpoints in message content for Anthropic models only. */
function anthropicBehindOpenAi(target: CacheTarget): boolean {
  return target.providerKind === 'openrouter' && /(^|\/)anthropic\/|claude/i.test(target.upstreamModel);
}

/**
 * Whether the optimizer gives this upstream cache hints, and so whether keeping a session on one key is worth
 * it: elsewhere (local servers, other compatible APIs) keys keep rotating as configured.
 */
export function cachesPerKey(target: CacheTarget): boolean {
  return wireFormat(target.format).promptCacheBreakpoints || anthropicBehindOpenAi(target) || target.providerKind === 'openai';
}

/** A stable, opaque `prompt_cache_key` for a session: its id may carry a user's name or a header's value. */
export function promptCacheKey(sessionId: string): string {
  return `hermes-${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`;
}

/**
 * The prompt-cache stage, on the body prepared for one upstream: Anthropic-format upstreams get breakpoints,
 * Anthropic models behind OpenRouter get them as content-part markers, OpenAI gets `prompt_cache_key` = the
 * session. Nothing changes when the optimizer is off, when the client set any cache hint of its own (`clientBody`
 * is the client's original body), or for other OpenAI-compatible servers (a strict one could refuse an unknown
 * field, and a request must never fail because of the router). Pure: the body is copied, not edited.
 */
export function optimizePromptCache(
  body: JsonObject,
  clientBody: JsonObject,
  target: CacheTarget,
  session: { id: string; ttl: PromptCacheTtl } | undefined,
  config: PromptCacheConfig,
): { body: JsonObject; decision: PromptCacheDecision } {
  if (!config.enabled) return { body, decision: { applied: 'off' } };
  if (clientSetCacheHints(clientBody)) return { body, decision: { applied: 'client_hints' } };
  const ttl = session?.ttl ?? '5m';
  if (wireFormat(target.format).promptCacheBreakpoints) {
    const marked = addAnthropicBreakpoints(body, ttl, config.max_breakpoints);
    return { body: marked.body, decision: { applied: 'breakpoints', ttl, breakpoints: marked.places } };
  }
  if (anthropicBehindOpenAi(target)) {
    const marked = addContentPartBreakpoints(body, ttl, config.max_breakpoints);
    return { body: marked.body, decision: { applied: 'breakpoints', ttl, breakpoints: marked.places } };
  }
  if (target.providerKind === 'openai' && session) {
    return { body: { ...body, prompt_cache_key: promptCacheKey(session.id) }, decision: { applied: 'prompt_cache_key' } };
  }
  return { body, decision: { applied: 'none' } };
}
