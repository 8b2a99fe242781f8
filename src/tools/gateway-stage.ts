import type { ToolRoutingDecision } from '../core/route-decision.js';
import type { Turn } from '../core/turn.js';
import type { SessionRecord } from '../store/session-record.js';
import { anticipateToolsets } from './anticipate.js';
import { requestToolsetName } from './catalog.js';
import type { ToolRoutingConfig, ToolRoutingMode } from './config.js';
import { decideResumedSurface } from './decide-surface.js';
import { decideFirstTurnSurfaceWithLlm, llmClassifierSettings } from './decide-with-llm.js';
import type { SurfaceDecision } from './decision.js';
import { agentDefersTools } from './defers-tools.js';
import { isFirstTurn } from './first-turn.js';
import type { ToolRoutingContext } from './routing-context.js';
import { toolRoutingContext } from './routing-context.js';
import { expandSurface, toolsetOfTool } from './surface.js';
import type { ToolSurface } from './surface.js';
import { countToolsTokensYielding } from './token-count.js';

/** What the request path needs after tool routing: the decision to record and what recovery will need. */
export interface ToolStageResult {
  decision: ToolRoutingDecision;
  /** Set when a narrowed surface was sent: recovery (request_toolset, pruned calls) works against it. */
  narrowed?: { context: ToolRoutingContext; surface: ToolSurface };
  state: SessionRecord;
  /**
   * The decision's schema token counts (for the ledger), counted from the decision on in slices that yield (the
   * tokenizer's tables take a moment to load and to run, and no answer should wait for a figure only the ledger
   * reads). The pipeline awaits what this returns after the answer and before its observers see the record: a
   * promise while the count still runs, undefined when the counts were known at once (the same tools again).
   */
  countSchemaTokens?: () => Promise<void> | undefined;
}

type SchemaTokens = { full: number; sent: number };
/** Counts by shape; a count still running is shared, so a burst of requests of a new shape tokenizes it once. */
const tokenCache = new Map<string, SchemaTokens | Promise<SchemaTokens>>();
const tokenCacheLimit = 512;

/**
 * Schema token counts for the ledger, cached by the tools' names and description lengths plus the surface, so
 * only the first request of a shape pays the tokenizer (a few milliseconds, in yielding slices); later turns are
 * a map lookup, answered without a promise. Requests of that shape that arrive while its first count runs (the
 * first count also loads the tokenizer's tables: up to a second on a loaded machine) wait for that count
 * instead of each starting its own, which cost every one of them the 60 KB serialisation and its garbage.
 */
function schemaTokens(turn: Turn, clientTools: readonly unknown[], sent: readonly unknown[], surfaceKey: string): SchemaTokens | Promise<SchemaTokens> {
  let key = `${turn.format}|${surfaceKey}`;
  for (const tool of turn.tools) key += `\u0000${tool.name}\u0001${tool.description.length}`;
  const hit = tokenCache.get(key);
  if (hit) return hit;
  // `full` is always the client's own array, never `turn.body.tools` (which holds the routed surface once it is
  // set): counting the grown surface as "full" under-reported the savings of every later turn.
  const counting = (async () => {
    const full = await countToolsTokensYielding(clientTools);
    return { full, sent: sent === clientTools ? full : await countToolsTokensYielding(sent) };
  })();
  if (tokenCache.size >= tokenCacheLimit) tokenCache.delete(tokenCache.keys().next().value ?? '');
  tokenCache.set(key, counting);
  counting.then(
    (counts) => {
      if (tokenCache.get(key) === counting) tokenCache.set(key, counts);
    },
    () => {
      // A refused schema is not remembered: the next request of the shape tries again, as before.
      if (tokenCache.get(key) === counting) tokenCache.delete(key);
    },
  );
  return counting;
}

/**
 * Fills `fullSchemaTokens` and `sentSchemaTokens` once, when called. `sentIsSurface` false (shadow mode): the
 * client's full array went, so sent = full. A schema the tokenizer refuses (special-token text) leaves both out.
 */
function schemaTokenCounter(
  decision: ToolRoutingDecision,
  count: () => { full: number; sent: number } | Promise<{ full: number; sent: number }>,
  sentIsSurface: boolean,
): () => Promise<void> | undefined {
  const fill = (tokens: { full: number; sent: number }) => {
    decision.fullSchemaTokens = tokens.full;
    decision.sentSchemaTokens = sentIsSurface ? tokens.sent : tokens.full;
  };
  // Started at once, beside the upstream call, in slices that yield: by the time a real provider has answered the
  // count is in, so the pipeline's wait for it (before the observers and the session save) is a resolved promise,
  // and a follow-up turn sent right after the answer (to this instance or a peer) finds the session saved.
  let pending: Promise<void> | undefined;
  try {
    const tokens = count();
    if (tokens instanceof Promise) {
      pending = tokens.then(fill, () => {
        // The counts are a ledger figure; the request was routed and answered without them.
      });
    } else {
      fill(tokens);
    }
  } catch {
    // As above: a schema the tokenizer refuses leaves both counts out.
  }
  let handedOut = false;
  return () => {
    if (handedOut) return undefined;
    handedOut = true;
    return pending;
  };
}

function fromSurfaceDecision(mode: ToolRoutingMode, decision: SurfaceDecision, turn: Turn, outcome: ToolRoutingDecision['outcome']): ToolRoutingDecision {
  return {
    mode,
    outcome,
    reason: decision.reason,
    predictedToolsets: decision.predictedToolsets,
    confidence: decision.confidence,
    fullToolCount: turn.tools.length,
    sentToolCount: decision.tools.length,
  };
}

/**
 * The tools stage of the request path. A narrowed session gets its stored surface rebuilt byte-identically;
 * a first turn is classified; a request with history and no known session is treated as resumed. In shadow mode
 * the decision is recorded and the full surface sent; `off` sends the full surface and lifts narrowed sessions
 * back to it for good. Never throws: any failure sends the client's own tools.
 */
export async function routeTools(
  turn: Turn,
  state: SessionRecord,
  config: ToolRoutingConfig,
  mode: ToolRoutingMode,
  env: NodeJS.ProcessEnv = {},
): Promise<ToolStageResult> {
  const tools = Array.isArray(turn.body.tools) ? (turn.body.tools as unknown[]) : [];
  // The surface as it stood before this turn: a later turn of a narrowed session is rebuilt from it.
  const previous = state.toolsets ? { toolsets: state.toolsets, grownToolsets: state.grownToolsets, narrowed: state.narrowed } : undefined;
  const base = { mode, fullToolCount: turn.tools.length, predictedToolsets: state.toolsets ?? [] };
  if (tools.length === 0) {
    return { decision: { ...base, outcome: 'passthrough', reason: 'no_tools', sentToolCount: 0 }, state };
  }
  if (mode === 'off') {
    if (state.narrowed) state.narrowed = false;
    return { decision: { ...base, outcome: 'full', reason: 'routing_off', sentToolCount: tools.length }, state };
  }
  if (agentDefersTools(tools)) {
    return { decision: { ...base, outcome: 'full', reason: 'agent_defers_tools', sentToolCount: tools.length }, state };
  }
  if (previous?.toolsets) {
    if (!previous.narrowed) {
      return { decision: { ...base, outcome: 'full', reason: 'session_on_full_surface', sentToolCount: tools.length }, state };
    }
    const context = toolRoutingContext(tools, turn.format, config);
    if (typeof context === 'string') {
      return { decision: { ...base, outcome: 'full', reason: context, sentToolCount: tools.length }, state };
    }
    const stored = { loadedToolsets: previous.toolsets, grownToolsets: previous.grownToolsets ?? [] };
    const added: string[] = [];
    // A tool the model called that the surface had pruned (the client still had it) widens the surface.
    for (const message of turn.messages) {
      for (const name of message.toolCallNames) {
        const owner = toolsetOfTool(context, name);
        if (owner !== undefined && !previous.toolsets.includes(owner) && !added.includes(owner)) added.push(owner);
      }
    }
    // A new user turn that clearly needs a toolset the session lacks grows the surface before the call.
    const anticipation = anticipateToolsets(context, config, turn.messages, [...previous.toolsets, ...added]);
    for (const toolset of anticipation.added) if (!added.includes(toolset)) added.push(toolset);
    const surface = expandSurface(context, config, stored, added);
    state.toolsets = surface.loadedToolsets;
    state.grownToolsets = surface.grownToolsets;
    if (anticipation.added.length > 0) state.anticipations = (state.anticipations ?? 0) + 1;
    turn.body.tools = surface.tools;
    const decision: ToolRoutingDecision = {
      ...base,
      outcome: 'sticky',
      reason: anticipation.added.length > 0 ? 'anticipated' : 'session_surface',
      predictedToolsets: surface.loadedToolsets,
      ...(anticipation.added.length > 0 ? { anticipatedToolsets: anticipation.added } : {}),
      sentToolCount: surface.tools.length,
    };
    const countSchemaTokens = schemaTokenCounter(decision, () => schemaTokens(turn, tools, surface.tools, surface.loadedToolsets.join(',')), true);
    return { decision, narrowed: { context, surface }, state, countSchemaTokens };
  }
  const input = { tools, format: turn.format, messages: turn.messages, config };
  // The optional LLM classifier is asked only when the local one abstains (off unless configured).
  const decided = isFirstTurn(turn.messages)
    ? await decideFirstTurnSurfaceWithLlm(input, llmClassifierSettings(config, env))
    : decideResumedSurface(input);
  if (decided.outcome !== 'narrowed' || !decided.surface) {
    return { decision: { ...fromSurfaceDecision(mode, decided, turn, 'full'), sentToolCount: tools.length }, state };
  }
  const context = toolRoutingContext(tools, turn.format, config);
  if (typeof context === 'string') {
    return { decision: { ...fromSurfaceDecision(mode, decided, turn, 'full'), sentToolCount: tools.length }, state };
  }
  state.toolsets = decided.surface.loadedToolsets;
  state.narrowed = mode === 'on';
  const surface = decided.surface;
  const decision: ToolRoutingDecision = {
    ...fromSurfaceDecision(mode, decided, turn, mode === 'on' ? 'narrowed' : 'full'),
    predictedToolsets: surface.loadedToolsets,
    sentToolCount: mode === 'on' ? surface.tools.length : tools.length,
  };
  const countSchemaTokens = schemaTokenCounter(decision, () => schemaTokens(turn, tools, surface.tools, surface.loadedToolsets.join(',')), mode === 'on');
  if (mode !== 'on') {
    decision.reason = `shadow:${decided.reason}`;
    return { decision, state, countSchemaTokens };
  }
  turn.body.tools = surface.tools;
  return { decision, narrowed: { context, surface }, state, countSchemaTokens };
}

/** Adds toolsets to a narrowed session (after request_toolset) and returns the grown surface. */
export function expandSessionSurface(
  turn: Turn,
  config: ToolRoutingConfig,
  narrowed: { context: ToolRoutingContext; surface: ToolSurface },
  state: SessionRecord,
  added: string[],
): ToolSurface {
  const current = state.toolsets ? { loadedToolsets: state.toolsets, grownToolsets: state.grownToolsets ?? [] } : narrowed.surface;
  const surface = expandSurface(narrowed.context, config, current, added);
  state.toolsets = surface.loadedToolsets;
  state.grownToolsets = surface.grownToolsets;
  state.recoveries = (state.recoveries ?? 0) + 1;
  turn.body.tools = surface.tools;
  narrowed.surface = surface;
  return surface;
}

export { requestToolsetName };
