import type { IncomingHttpHeaders } from 'node:http';
import type { ApiFormat } from '../../../src/core/api-format.js';
import type { RecordingName } from '../recordings.js';
import type { FakePromptCache } from './prompt-cache.js';

/** One request the fake received, kept for assertions. */
export interface ReceivedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** The query string with its `?` (e.g. `?beta=true`), or `''`. */
  query: string;
  headers: IncomingHttpHeaders;
  /** The raw body as received. */
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  /** Which provider API the path belongs to; undefined for models, embeddings and unknown paths. */
  format: ApiFormat | undefined;
  /** `json.model` when it is a string. */
  model: string | undefined;
  /** `json.stream === true`. */
  stream: boolean;
}

/**
 * Timing and fault injection for a reply. "Chunk" counts are SSE events written since the start of the body
 * (the first role / `message_start` event is chunk 1; pings count too; the OpenAI `[DONE]` counts as one).
 */
export interface ReplyShaping {
  /** Wait this long before sending the status line and headers. */
  delayBeforeHeadersMs?: number;
  /** Streaming: send headers at once, then wait this long before the first chunk. */
  delayBeforeFirstChunkMs?: number;
  /** Streaming: wait this long between chunks (overrides the script's `interChunkDelayMs`). */
  interChunkDelayMs?: number;
  /** Streaming: destroy the socket after this many chunks (a stream cut mid-body). */
  cutAfterChunks?: number;
  /** Streaming: stop sending after this many chunks... */
  stallAfterChunks?: number;
  /** ...for this long, then carry on; omitted means forever (until the client gives up). */
  stallMs?: number;
  /** Streaming: after this many chunks, send one event whose data line is not valid JSON, then carry on. */
  malformedAfterChunks?: number;
  /**
   * Streaming: after this many chunks, send the provider's mid-stream error event and end the body
   * (Anthropic `event: error` with e.g. `overloaded_error`; OpenAI a `data: {"error":{…}}` line).
   */
  errorEventAfterChunks?: number;
  /** Which error the mid-stream event reports; default `overloaded`. */
  errorEventKind?: ErrorKind;
  /** Streaming: after the last event, keep the body open this long before ending it (a provider that lingers). */
  lingerAfterLastEventMs?: number;
  /** Streaming: leave out the terminator (OpenAI `data: [DONE]`, Anthropic `message_stop`), end the body cleanly. */
  omitTerminator?: boolean;
  /** Strip every usage field (and the OpenAI usage-only chunk), as a provider that reports none. */
  omitUsage?: boolean;
  /**
   * OpenAI streams: behave like api.openai.com, which sends usage only when the request has
   * `stream_options.include_usage: true`; without it the usage fields and usage chunk are left out.
   */
  usageOnlyIfRequested?: boolean;
  /** Rewrite the response `model` (OpenAI every chunk, Anthropic the message) to the requested model. */
  rewriteModel?: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A tool call for a synthesized reply. */
export interface SyntheticToolCall {
  name: string;
  /** Arguments object; serialised with JSON.stringify and streamed in `argumentFragments` pieces. */
  arguments: Record<string, unknown>;
  /** Optional id; defaults to a deterministic `call_…` / `toolu_…` id. */
  id?: string;
}

export interface SyntheticUsage {
  /** OpenAI: every prompt token. Anthropic: the prompt tokens neither read from nor written to the cache. */
  inputTokens: number;
  outputTokens: number;
  /** OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens` (default 0). */
  cacheReadTokens?: number;
  /** Anthropic `cache_creation_input_tokens` (default 0). */
  cacheWriteTokens?: number;
  /** Of the writes, those with the 1-hour TTL (Anthropic `cache_creation.ephemeral_1h_input_tokens`). */
  cacheWrite1hTokens?: number;
}

/** Replay a recorded response (streaming or JSON body). */
export interface RecordingBehaviour extends ReplyShaping {
  kind: 'recording';
  /** Defaults to the format's text recording: `openai-text` or `anthropic-text`. */
  name?: RecordingName;
  /** Defaults to the request's `stream` flag. */
  stream?: boolean;
  /** Status for a JSON body; defaults to the recording's own (400 for error recordings) or 200. */
  status?: number;
}

/**
 * A reply built in the real wire shape of the request's format: text and/or tool calls. Use `chunkCount` for
 * long streams (e.g. 60 text deltas); with no `text`, words `w1 w2 …` are generated.
 */
export interface SyntheticBehaviour extends ReplyShaping {
  kind: 'synthetic';
  text?: string;
  /** Number of text deltas; the text is split into that many pieces. Default: one delta per word. */
  chunkCount?: number;
  toolCalls?: SyntheticToolCall[];
  /** How many pieces each tool call's argument JSON is streamed in (default 3). */
  argumentFragments?: number;
  /** Defaults to the request's `stream` flag. */
  stream?: boolean;
  /** Defaults: input ≈ request body chars / 4, output ≈ text chars / 4 + tool argument chars / 4. */
  usage?: SyntheticUsage;
  /** Response model; defaults to the requested model. */
  model?: string;
}

export type ErrorKind =
  | 'rate-limit'
  | 'server'
  | 'overloaded'
  | 'authentication'
  | 'bad-request'
  | 'context-length'
  | 'content-filter'
  | 'not-found';

/** An HTTP error in the provider's own error format. */
export interface ErrorBehaviour {
  kind: 'error';
  status: number;
  /** Defaults from the status (429 rate-limit, 401 authentication, 5xx server, 529 overloaded, else bad-request). */
  error?: ErrorKind;
  message?: string;
  /** `retry-after` header value (seconds, or an HTTP date string). */
  retryAfter?: number | string;
  /** `retry-after-ms` header value. */
  retryAfterMs?: number;
  /** For `context-length`: the numbers in the message. */
  promptTokens?: number;
  maxTokens?: number;
  /** Replace the generated body entirely. */
  body?: unknown;
  delayBeforeHeadersMs?: number;
  /**
   * Holds the answer until this settles (or the client goes): a test makes something happen while the request is
   * surely in flight, then releases it, instead of racing a delay a loaded machine may overrun.
   */
  heldUntil?: Promise<unknown>;
  headers?: Record<string, string>;
}

/** Reset the TCP connection before any response byte. */
export interface ResetBehaviour {
  kind: 'reset';
  delayMs?: number;
}

/** Never answer; the request stays open until the client gives up (or the fake closes). */
export interface HangBehaviour {
  kind: 'hang';
}

export type FakeBehaviour = RecordingBehaviour | SyntheticBehaviour | ErrorBehaviour | ResetBehaviour | HangBehaviour;

/** Behaviour for a request, or undefined to fall through to the next rule (then the default). */
export type BehaviourChooser = (request: ReceivedRequest) => FakeBehaviour | undefined;

/** What the fake answers when no enqueued one-shot behaviour is pending. */
export interface FakeScript {
  /** Per requested model, checked first. */
  byModel?: Record<string, FakeBehaviour>;
  /** A fixed behaviour, or a function of the request; checked after `byModel`. */
  respond?: FakeBehaviour | BehaviourChooser;
  /** Ids listed by `GET /v1/models`. */
  models?: string[];
  /** Default pause between streamed chunks. */
  interChunkDelayMs?: number;
  /** `POST /v1/embeddings`; by default every input gets a deterministic unit vector derived from its text. */
  embeddings?: EmbeddingsScript;
}

/** Control over `POST /v1/embeddings`, e.g. to make two texts similar on purpose. */
export interface EmbeddingsScript {
  /** This text's vector instead of the derived one (undefined: the derived one). */
  vectorFor?: (text: string) => number[] | undefined;
  /** Every embeddings call fails (an error in OpenAI's format) or never answers. */
  fault?: ErrorBehaviour | HangBehaviour;
}

export interface FakeUpstream {
  /** e.g. http://127.0.0.1:40123 (OpenAI base is `${url}/v1`, Anthropic base `${url}`). */
  url: string;
  requests: ReceivedRequest[];
  setScript(script: FakeScript): void;
  /** One-shot behaviours consumed by the next chat/messages requests, in order, before the script. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Clears requests, counters, the queue and the script. */
  reset(): void;
  close(): Promise<void>;
  /** Currently open sockets (for leak checks). */
  openSockets(): number;
  /**
   * Requests whose client went away before the response finished. A body small enough to be handed whole to the
   * kernel counts as finished even when the client never reads it: see `connectionsResetByClient`.
   */
  abortedRequests(): number;
  /**
   * Connections the client reset (closed with bytes of ours unread, or while we still wrote): the sign that it
   * stopped reading a response early and hung up. Never counts the fake's own kills, nor sockets closed by `close()`.
   */
  connectionsResetByClient(): number;
  /** Chat/messages/other requests received and not yet finished or closed (idle keep-alive sockets excluded). */
  inFlightRequests(): number;
  /** Requests received on a path (e.g. `/v1/chat/completions`); all paths when omitted. */
  requestCount(path?: string): number;
}

export interface StartFakeUpstreamOptions {
  port?: number;
  /**
   * Cache prompts as the real providers do (see prompt-cache.ts): synthetic replies then report the cache reads
   * and writes of each request in their usage, in place of the estimate.
   */
  promptCache?: FakePromptCache;
}
