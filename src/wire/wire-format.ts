import type { ApiFormat } from '../core/api-format.js';
import type { GatewayError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { ToolView, Turn } from '../core/turn.js';
import type { Usage } from '../core/usage.js';
import type { ClientEmitter } from './client-emitter.js';
import type { DecodeContext } from './decode-context.js';
import type { InterceptedCall, RecoveryFilter, ThinkingBlock } from './recovery-filter.js';
import type { UsageAccumulator } from './usage-accumulator.js';

/** One event of a client stream: its parsed data and its SSE `event:` name (undefined: a data-only frame). */
export interface StreamEvent {
  payload: JsonObject;
  eventName: string | undefined;
}

/** The model's call of a gateway tool and the gateway's answers, appended as one tool round trip. */
export interface ToolRoundTrip {
  toolName: string;
  calls: InterceptedCall[];
  /** One result text per call, in order. */
  results: string[];
  /** Text the model wrote before calling. */
  text: string;
  /** Thinking blocks the format requires back verbatim in a tool-use loop (Anthropic); ignored elsewhere. */
  thinking: ThinkingBlock[];
}

/** What `stripToolCalls` found in (and removed from) a complete response. */
export interface StrippedToolCalls {
  calls: InterceptedCall[];
  /** The response asked only for the stripped tool: re-issue instead of answering. */
  recoveryOnly: boolean;
  realToolNames: string[];
  text: string;
  thinking: ThinkingBlock[];
}

/**
 * One API body format (`openai-chat`, `anthropic-messages`, …): everything the gateway does that depends on the
 * shape of a body, an event or an error. Code outside `wire/` gets the object from the registry
 * (`wireFormat(turn.format)`, `wire/formats.ts`) and never compares format names. Translation between two formats
 * is not here: it is per pair, in `translate/`.
 *
 * Every member is a pure function of its arguments (no I/O, no state between calls); the two factories return
 * objects with the state of one stream. Bodies are edited copy-on-write at the top level (see ARCHITECTURE.md,
 * "Request bytes in"): `systemPromptMembers` returns members to assign; `appendToolRoundTrip` replaces `messages`.
 */
export interface WireFormat {
  readonly name: ApiFormat;

  // Requests.
  /**
   * Validates what routing relies on and builds the `Turn` view over the original body. Throws
   * `GatewayError('invalid_request')` naming the field; silent about every field routing does not read.
   */
  decode(body: unknown, context: DecodeContext): Turn;
  /** The top-level members that, replacing the body's own, end its system prompt with `note`. */
  systemPromptMembers(body: JsonObject, note: string): JsonObject;
  /** Reads one tool of the request's tool list; undefined when it has no readable name (the caller fails open). */
  readTool(tool: unknown, index: number): ToolView | undefined;
  /** A function tool in this format (the gateway's own `request_toolset`). Fixed key order: byte-stable. */
  functionTool(definition: { name: string; description: string; parameters: JsonObject }): JsonObject;
  /** Appends the assistant's calls and the gateway's results to `body.messages` (a new array). */
  appendToolRoundTrip(body: JsonObject, roundTrip: ToolRoundTrip): void;

  // Responses.
  /** The usage a complete response reports, in the gateway's terms (`core/usage.ts`). */
  usageFromBody(body: JsonObject): Usage | undefined;
  /** Collects the usage a stream reports across its events. */
  createUsageAccumulator(): UsageAccumulator;
  /** The assistant's text in a complete response. */
  responseText(body: JsonObject): string;
  /** The text one stream event adds (text deltas; for Anthropic also tool input JSON, as estimates count it). */
  streamEventText(payload: JsonObject): string;
  /** Removes the calls of `toolName` from a complete response, in place (a plain stop when none is left). */
  stripToolCalls(body: JsonObject, toolName: string): StrippedToolCalls;
  /**
   * A stream filter that hides the calls of `toolName` from the client and holds the finish when they were the
   * only calls, so the gateway can re-issue and continue the same client stream (the request_toolset recovery).
   */
  createRecoveryFilter(next: ClientEmitter, toolName: string): RecoveryFilter;
  /** Appends `text` to the answer's last text, in place; false (nothing changed) for tool-call-only answers. */
  appendTextToBody(body: JsonObject, text: string): boolean;
  /**
   * Wraps an emitter so that `text()` is written as one more text delta just before the stream says it ended
   * normally (not after tool calls). `text` is asked for only then.
   */
  appendTextToStream(next: ClientEmitter, text: () => string): ClientEmitter;

  // Errors.
  /** The error body a client of this format expects (also the data of a mid-stream error event). */
  errorBody(error: GatewayError): JsonObject;

  // Stream encoding.
  /** The SSE `event:` name of a mid-stream error; undefined when error events are data-only frames. */
  readonly errorEventName: string | undefined;
  /** The data of the frame that ends a stream (OpenAI `[DONE]`); undefined when the last event ends it. */
  readonly streamEndData: string | undefined;
  /**
   * A cached answer (a serialized body, or the stream's frames joined) replayed for another request: what must
   * be unique per answer is renewed (a Responses id, which clients continue from); everything else is unchanged.
   */
  renewAnswer(serialized: string, requestId: string): string;
  /** The format marks the cacheable prefix itself, with `cache_control` breakpoints (Anthropic's prompt cache). */
  readonly promptCacheBreakpoints: boolean;
  /** A complete response as this format's stream events, for providers that answered `stream: true` with JSON. */
  bodyAsStreamEvents(body: JsonObject, includeUsage: boolean): StreamEvent[];

  // Reading a provider's stream of this format (the relay).
  /** The SSE `event:` name an event of this format carries (undefined: data-only frames). */
  streamEventName(payload: JsonObject): string | undefined;
  /**
   * Where an event leaves the answer: `finished` once the model's stop reason is known (the answer is whole even
   * if the terminal event never comes), `ended` at the terminal event (nothing follows), else undefined.
   */
  streamEventState(payload: JsonObject): 'finished' | 'ended' | undefined;
  /** What a stream that stopped after `finished` but without its terminal event still owes the client. */
  closingEvents(): StreamEvent[];
  /** An event that only carries usage (chat's `choices: []` chunk): hidden from a client that did not ask for it. */
  usageOnlyEvent(payload: JsonObject): boolean;
}
