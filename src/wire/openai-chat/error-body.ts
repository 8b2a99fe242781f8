import type { ErrorClass, GatewayError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';

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

/** `{"error":{message,type,code}}`, the chat-completions error shape (also the data of a mid-stream error chunk). */
export function openAiErrorBody(error: GatewayError): JsonObject {
  return { error: { message: error.message, type: openAiType[error.errorClass], code: openAiCode[error.errorClass] ?? null } };
}
