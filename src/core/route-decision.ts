/**
 * What the routing stages decided for one request, recorded as JSON in the ledger. Each stage writes its own
 * section; a stage that did nothing leaves it undefined.
 */
export interface ToolRoutingDecision {
  mode: 'on' | 'shadow' | 'off';
  /** `narrowed`: a reduced surface was sent; `full`: the full surface; `sticky`: the session's stored surface. */
  outcome: 'narrowed' | 'full' | 'sticky' | 'passthrough';
  reason: string;
  predictedToolsets: string[];
  confidence?: number;
  fullToolCount: number;
  sentToolCount: number;
  fullSchemaTokens?: number;
  sentSchemaTokens?: number;
  recoveries?: number;
  /** Toolsets a later user turn added before the call (anticipation); each growth is one prompt-cache break. */
  anticipatedToolsets?: string[];
  /**
   * Input + output tokens of the upstream responses a recovery replaced (the request_toolset-only answers): the
   * ledger bills every attempt, the client's usage shows only the last one. Set only when `recoveries` is.
   */
  recoveryOverheadTokens?: number;
}

export interface ModelRoutingDecision {
  policy: string;
  reason: string;
  candidates: { provider: string; model: string }[];
  skipped?: { provider: string; model: string; reason: string }[];
  topic?: string;
  difficulty?: number;
  /** Each policy that ran, in order, with what it decided. */
  steps?: { policy: string; reason: string }[];
  /** The model-policy (switches) revision the decision was made under. */
  policyRevision?: number;
  workloadHint?: string;
  toolLoop?: boolean;
  /** The topic's persona was added to the system prompt of the attempts sent to `sentTo` (the topic, never the text). */
  persona?: { topic: string; sentTo: string[] };
  /** The chain's `max_price` dropped these fallbacks before any call (`fallbacks.<model>.max_price`). */
  priceCap?: PriceCapDecision;
}

/** What a fallback chain's price bound did to one request. */
export interface PriceCapDecision {
  /** `primary`, `free_only`, or USD per million tokens. */
  maxPrice: 'primary' | 'free_only' | number;
  refused: { provider: string; model: string; reason: string }[];
}

/**
 * The prompt-cache optimizer on the served attempt: which hints it added (`client_hints`: the client set its own,
 * left alone; `none`: an upstream that takes no hints), the Anthropic TTL chosen, and where the breakpoints went.
 */
export interface PromptCacheDecision {
  applied: 'breakpoints' | 'prompt_cache_key' | 'client_hints' | 'none' | 'off';
  ttl?: '5m' | '1h';
  breakpoints?: ('tools' | 'system' | 'previous_user' | 'latest_user')[];
  /** The session stayed on the provider key whose cache was warm. */
  keyAffinity?: boolean;
}

/**
 * The conversation a request belongs to, and what makes it recognisable in reports (never the conversation
 * itself): the agent, the first prompt (on the session's first request) and the title an agent's side request
 * generated (on that side request), each short and with secrets redacted. Absent when `ledger.session_labels` is off.
 */
export interface SessionDecision {
  id: string;
  source: 'header' | 'body' | 'fingerprint';
  agent?: string;
  firstPrompt?: string;
  title?: string;
}

export interface RouteDecision {
  /**
   * The response cache: a hit (no provider called; what the original answer would cost now) or a stored miss.
   * `kind` says which lookup hit: the exact request, or a semantic match (`similarity` to the cached request).
   */
  cache?: { hit: boolean; kind?: 'exact' | 'semantic'; similarity?: number; stored?: boolean; savedCostUsd?: number | null; reason?: string };
  /** The context nudge added a note to the system prompt (fill = prompt tokens / real context window). */
  nudge?: { level: 'first' | 'escalated'; fill: number };
  session?: SessionDecision;
  tools?: ToolRoutingDecision;
  models?: ModelRoutingDecision;
  promptCache?: PromptCacheDecision;
}
