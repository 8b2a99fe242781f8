import type { ApiFormat } from './api-format.js';
import type { JsonObject } from './json.js';

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** A read-only, format-independent view of one message: enough for routing decisions, never re-encoded. */
export interface MessageView {
  role: MessageRole;
  /** The message's plain text (text parts joined with newlines); tool calls and images excluded. */
  text: string;
  /** Names of the tools this (assistant) message called. */
  toolCallNames: string[];
  hasImage: boolean;
}

/** A tool offered by the client, as the routing stages see it. */
export interface ToolView {
  name: string;
  description: string;
  /** Index of the tool object in the original body's `tools` array. */
  index: number;
  /**
   * A tool the provider runs itself (Responses `web_search`, `file_search`…): tool routing never narrows it
   * away, since the client cannot offer it again on its own.
   */
  hosted?: boolean;
}

/**
 * The stored conversation a request continues (Responses `previous_response_id`): its items, oldest first, in
 * the turn's format, and the provider that served the response continued — which holds the conversation itself
 * when it speaks the format, so it gets the id instead of the items.
 */
export interface Continuation {
  responseId: string;
  items: readonly JsonObject[];
  servedBy?: string;
}

/** Hints a client can send in headers to steer routing. */
export interface ClientHints {
  sessionId?: string;
  workloadHint?: string;
  toolLoop?: boolean;
  policyRevision?: string;
  /** The client's `User-Agent` (at most 200 characters): only to name the agent in reports, never to route. */
  userAgent?: string;
}

/**
 * One client request on its way through the gateway. `body` is the original parsed body and is the only thing
 * ever sent upstream (edited in place by the stages), so a request that leaves in the format it came in keeps
 * every field it had. The other fields are a view derived once by `wire` decode.
 */
export interface Turn {
  requestId: string;
  receivedAt: number;
  format: ApiFormat;
  body: JsonObject;
  requestedModel: string;
  stream: boolean;
  messages: MessageView[];
  tools: ToolView[];
  hasImages: boolean;
  /** A cheap estimate (characters / 4) of the prompt's tokens, tools included; never a tokenizer on the hot path. */
  estimatedInputTokens: number;
  hints: ClientHints;
  clientKeyId?: string;
  /** Set when the request continues a stored conversation (see `Continuation`). */
  continuation?: Continuation;
  /**
   * The last user message began with a skip prefix (`/sd`…), stripped from the body before routing: the same
   * words without it are routed by topic (another model, maybe a persona), so the two never share a cached answer.
   */
  topicSkipped?: boolean;
}
