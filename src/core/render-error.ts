import type { ApiFormat } from './api-format.js';
import type { ErrorClass } from './errors.js';
import { GatewayError } from './errors.js';

const openAiType: Record<ErrorClass, string> = {
  invalid_request: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  model_not_found: 'invalid_request_error',
  not_found: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  budget_exceeded: 'insufficient_quota',
  context_length: 'invalid_request_error',
  content_filter: 'invalid_request_error',
  upstream_bad_request: 'invalid_request_error',
  upstream_auth: 'api_error',
  upstream_server_error: 'api_error',
  upstream_too_large: 'api_error',
  timeout: 'api_error',
  connection: 'api_error',
  stream_interrupted: 'api_error',
  unavailable: 'service_unavailable',
  client_closed: 'api_error',
  internal: 'api_error',
};

const openAiCode: Partial<Record<ErrorClass, string>> = {
  model_not_found: 'model_not_found',
  context_length: 'context_length_exceeded',
  content_filter: 'content_filter',
  rate_limited: 'rate_limit_exceeded',
  budget_exceeded: 'insufficient_quota',
  payload_too_large: 'payload_too_large',
};

const anthropicType: Record<ErrorClass, string> = {
  invalid_request: 'invalid_request_error',
  payload_too_large: 'request_too_large',
  authentication: 'authentication_error',
  permission: 'permission_error',
  model_not_found: 'not_found_error',
  not_found: 'not_found_error',
  rate_limited: 'rate_limit_error',
  budget_exceeded: 'rate_limit_error',
  context_length: 'invalid_request_error',
  content_filter: 'invalid_request_error',
  upstream_bad_request: 'invalid_request_error',
  upstream_auth: 'api_error',
  upstream_server_error: 'api_error',
  upstream_too_large: 'api_error',
  timeout: 'timeout_error',
  connection: 'api_error',
  stream_interrupted: 'api_error',
  unavailable: 'overloaded_error',
  client_closed: 'api_error',
  internal: 'api_error',
};

export interface RenderedError {
  status: number;
  body: unknown;
}

/** The error body a client of `format` expects, as a plain object (also used for mid-stream error events). */
export function errorBody(error: GatewayError, format: ApiFormat): unknown {
  if (format === 'anthropic-messages') {
    return { type: 'error', error: { type: anthropicType[error.errorClass], message: error.message } };
  }
  return {
    error: { message: error.message, type: openAiType[error.errorClass], code: openAiCode[error.errorClass] ?? null },
  };
}

/**
 * Renders an error for a client. An upstream 4xx that is returned unchanged keeps the provider's own body when
 * the provider spoke the client's format; otherwise the message is carried over into the client's shape.
 */
export function renderError(error: GatewayError, format: ApiFormat): RenderedError {
  if (error.upstreamBody !== undefined && error.upstreamFormat === format) {
    return { status: error.status, body: error.upstreamBody };
  }
  return { status: error.status, body: errorBody(error, format) };
}
