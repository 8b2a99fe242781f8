import type { ErrorClass, GatewayError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';

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

/** `{"type":"error","error":{type,message}}`, the Messages error shape (also the data of an `error` event). */
export function anthropicErrorBody(error: GatewayError): JsonObject {
  return { type: 'error', error: { type: anthropicType[error.errorClass], message: error.message } };
}
