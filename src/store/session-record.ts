import type { PromptCacheTtl } from '../config/prompt-cache.js';

/**
 * Everything the gateway remembers about one conversation between its requests, in one record: the pipeline
 * loads it once at the start of a request and saves it at the end, with early checkpoints of what changed (one
 * Redis key per session in a cluster). Plain JSON data, compact on purpose: a gateway holds one per live session,
 * so nothing here may grow with the request (no bodies, no schemas, no text).
 */
export interface SessionRecord {
  /** Tool routing: the toolsets of the session's surface (grows, never shrinks). */
  toolsets?: string[];
  /**
   * The toolsets of `toolsets` added after the first surface, in the order they joined: their tools are sent
   * after the first surface's, so the provider's cached prefix survives a growth (see buildSurface).
   */
  grownToolsets?: string[];
  /**
   * Whether the narrowed surface is being sent. False for sessions decided in shadow mode or restored to the full
   * surface by `router off`: those stay on the full surface, because narrowing a session midway could take away
   * a tool the model is using.
   */
  narrowed?: boolean;
  /** request_toolset re-issues served in this session. */
  recoveries?: number;
  /** Later user turns whose surface was grown before the call (anticipation). */
  anticipations?: number;
  /** Model routing's affinity: the `provider/model` that last answered, and until when that is worth keeping. */
  affinity?: SessionAffinityState;
  /** Topic routing's inertia (see models/topic/inertia.ts). */
  topic?: TopicSessionState;
  /** The context nudge: the session's latest prompt size and the levels already sent. */
  nudge?: NudgeSessionState;
  /** The prompt-cache optimizer: the session's pace (cache TTL policy) and the key holding its cache. */
  promptCache?: PromptCacheSessionState;
  updatedAt: number;
}

export interface SessionAffinityState {
  deployment: string;
  expiresAt: number;
}

/** What the topic router remembers about a session between turns. */
export interface TopicSessionState {
  /** The topic the session is routed to (`none` = default model). */
  topic: string;
  /** A different specialist topic seen on recent turns that has not yet earned a switch. */
  pending?: { topic: string; turns: number };
  turns: number;
}

export type NudgeLevel = 'first' | 'escalated';

export interface NudgeSessionState {
  promptTokens: number;
  provider?: string;
  model?: string;
  /** Levels already sent in this session: a level fires once and is never re-armed. */
  sent: NudgeLevel[];
  seenAt: number;
}

export interface PromptCacheSessionState {
  lastSeenAt: number;
  ttl: PromptCacheTtl;
  /** The provider key that last answered, and until when its cache is warm. */
  key?: { providerId: string; keyId: string; warmUntil: number };
}
