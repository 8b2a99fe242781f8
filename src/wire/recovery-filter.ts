import type { ClientEmitter } from './client-emitter.js';

/** A `request_toolset` call the model made, as intercepted from the client-format stream or body. */
export interface InterceptedCall {
  id: string;
  /** The raw arguments: a JSON string (OpenAI) or the accumulated input JSON (Anthropic). */
  argumentsText: string;
}

/** Thinking blocks of the response, which Anthropic requires back verbatim in a tool-use loop. */
export interface ThinkingBlock {
  type: 'thinking' | 'redacted_thinking';
  thinking?: string;
  signature?: string;
  data?: string;
}

/**
 * A client-format stream filter that hides `request_toolset` from the client. When a response ends having
 * called only `request_toolset`, its finish is held back so the gateway can re-issue the request and continue
 * the same client stream; a mixed response passes its real tool calls through.
 */
export interface RecoveryFilter extends ClientEmitter {
  /** The calls to serve when the response ended asking only for toolsets; undefined otherwise. */
  pendingRecovery(): InterceptedCall[] | undefined;
  /** Every request_toolset call seen in this response (also in mixed responses). */
  interceptedCalls(): InterceptedCall[];
  /** Names of the real tools the model called across the whole client response. */
  calledToolNames(): string[];
  /** Text the model wrote in this response, for the assistant message appended on re-issue. */
  responseText(): string;
  thinkingBlocks(): ThinkingBlock[];
  /** The next upstream response continues the same client stream. */
  beginContinuation(): void;
  /** No re-issue will follow (limit reached or it failed): release what was held as a normal end. */
  releaseHeld(): void;
}
