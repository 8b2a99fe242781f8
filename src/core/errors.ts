import type { ApiFormat } from './api-format.js';

/**
 * Why a request or an attempt failed. The attempt loop reads the class to decide whether to retry, cool down,
 * fail over or give up; the ledger records it.
 */
export const errorClasses = [
  'invalid_request', // malformed JSON or a body the wire decoder rejects (400)
  'payload_too_large', // 413
  'authentication', // the client's key (401)
  'permission', // 403
  'model_not_found', // 404
  'not_found', // unknown route
  'rate_limited', // 429 from upstream or a local limit
  'budget_exceeded', // a configured spend or token budget is used up (429; clients must not retry before it resets)
  'context_length', // the prompt does not fit the model's window
  'content_filter', // the provider refused on content grounds: never retried
  'upstream_bad_request', // other upstream 4xx: returned to the client unchanged
  'upstream_auth', // upstream 401/403: that key is disabled
  'upstream_server_error', // upstream 5xx
  'upstream_too_large', // an upstream answer over server.upstream_response_limit_bytes: final, not retried
  'timeout', // connect, first-byte or idle timeout
  'connection', // reset, refused, DNS
  'stream_interrupted', // the stream broke after bytes reached the client
  'unavailable', // nothing could serve the request (no provider, all off, all cooling)
  'client_closed', // the client went away
  'internal', // a bug in the gateway
] as const;
export type ErrorClass = (typeof errorClasses)[number];

const defaultStatus: Record<ErrorClass, number> = {
  invalid_request: 400,
  payload_too_large: 413,
  authentication: 401,
  permission: 403,
  model_not_found: 404,
  not_found: 404,
  rate_limited: 429,
  budget_exceeded: 429,
  context_length: 400,
  content_filter: 400,
  upstream_bad_request: 400,
  upstream_auth: 502,
  upstream_server_error: 502,
  upstream_too_large: 502,
  timeout: 504,
  connection: 502,
  stream_interrupted: 502,
  unavailable: 503,
  client_closed: 499,
  internal: 500,
};

export interface GatewayErrorOptions {
  status?: number;
  retryAfterMs?: number;
  /** For upstream 4xx that go back unchanged: the provider's body and the format it is in. */
  upstreamBody?: unknown;
  upstreamFormat?: ApiFormat;
  /** The HTTP status the provider answered, when it answered at all. */
  upstreamStatus?: number;
  cause?: unknown;
}

/** Every error the gateway produces or classifies. Rendered once, at the edge, in the client's format. */
export class GatewayError extends Error {
  readonly errorClass: ErrorClass;
  readonly status: number;
  readonly retryAfterMs: number | undefined;
  readonly upstreamBody: unknown;
  readonly upstreamFormat: ApiFormat | undefined;
  readonly upstreamStatus: number | undefined;

  constructor(errorClass: ErrorClass, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.errorClass = errorClass;
    this.status = options.status ?? defaultStatus[errorClass];
    this.retryAfterMs = options.retryAfterMs;
    this.upstreamBody = options.upstreamBody;
    this.upstreamFormat = options.upstreamFormat;
    this.upstreamStatus = options.upstreamStatus;
  }

  /** Whether another candidate (or the same one later) might succeed where this attempt failed. */
  get retryable(): boolean {
    return (
      this.errorClass === 'rate_limited' ||
      this.errorClass === 'upstream_server_error' ||
      this.errorClass === 'upstream_auth' ||
      this.errorClass === 'timeout' ||
      this.errorClass === 'connection' ||
      this.errorClass === 'context_length'
    );
  }
}

export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError('internal', `internal gateway error: ${message}`, { cause: error });
}
