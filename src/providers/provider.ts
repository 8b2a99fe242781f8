import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';

/** One server-sent event as it came off the wire (`event:` name when the API sends one, and the raw data). */
export interface SseEvent {
  event?: string;
  data: string;
}

/** What every adapter is built with: where the provider is and how to reach it (the registry fills it from the config). */
export interface ProviderConnectionSettings {
  id: string;
  baseUrl: string;
  headers: Record<string, string>;
  connectTimeoutMs: number;
  /** `server.upstream_response_limit_bytes` (the transport's default when absent). */
  responseLimitBytes?: number;
}

export interface ProviderTimeouts {
  connectMs: number;
  /** From sending the request to the response headers (non-streaming: to the whole body). */
  firstByteMs: number;
  /** Longest silence allowed between two stream chunks. */
  idleMs: number;
}

/** One upstream call, fully prepared: the body is in the provider's format with the upstream model id set. */
export interface ProviderCall {
  model: string;
  /** The format of `body`: the provider's own `format`, or one of `alsoSpeaks` (absent: `format`). */
  format?: ApiFormat;
  body: JsonObject;
  stream: boolean;
  apiKey: string | undefined;
  signal: AbortSignal;
  timeouts: ProviderTimeouts;
  /** Extra headers from the client that providers pass on (e.g. `anthropic-beta`, `anthropic-version`). */
  forwardHeaders: Record<string, string>;
  /**
   * Allow-listed client query parameters with their `?` (`?beta=true` from the Anthropic SDK's beta client);
   * like `forwardHeaders`, only the provider they belong to uses them.
   */
  forwardQuery?: string;
  /** Headers the config adds for this model (`headers` on a model entry); the provider's own are in its settings. */
  extraHeaders?: Record<string, string>;
}

export type ProviderResponse =
  | { kind: 'json'; status: number; headers: Record<string, string>; body: JsonObject }
  | { kind: 'stream'; status: number; headers: Record<string, string>; events: AsyncIterable<SseEvent> };

/**
 * A provider adapter (version 1). It sends one call and either returns a successful response or throws a
 * classified `GatewayError` (status, error class, retry-after); it never retries — that is dispatch's job.
 */
export interface Provider {
  readonly specificationVersion: 'v1';
  readonly id: string;
  /** The wire format this provider speaks; dispatch translates when it differs from the client's. */
  readonly format: ApiFormat;
  /**
   * Other formats the provider serves natively (OpenAI: the Responses API beside chat completions). A client of
   * one of them is sent its own body unchanged; every other client is translated into `format`.
   */
  readonly alsoSpeaks?: readonly ApiFormat[];
  send(call: ProviderCall): Promise<ProviderResponse>;
  /**
   * One cheap call that proves the provider is reachable and the key works (for `doctor`); resolves to the model
   * ids the provider lists, or undefined when its answer is not a model list.
   */
  check(apiKey: string | undefined, signal: AbortSignal): Promise<string[] | undefined>;
  close(): Promise<void>;
}
