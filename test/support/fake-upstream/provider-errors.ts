import type { ApiFormat } from '../../../src/core/api-format.js';
import type { ErrorBehaviour, ErrorKind } from './types.js';

/** Error bodies in each provider's own format, with the type/code each provider uses for the situation. */

export function defaultErrorKind(status: number): ErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 401 || status === 403) return 'authentication';
  if (status === 404) return 'not-found';
  if (status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  return 'bad-request';
}

function defaultMessage(behaviour: ErrorBehaviour, kind: ErrorKind, format: ApiFormat): string {
  const promptTokens = behaviour.promptTokens ?? 210_000;
  const maxTokens = behaviour.maxTokens ?? 200_000;
  switch (kind) {
    case 'rate-limit':
      return 'Rate limit reached for requests (fake upstream). Please try again later.';
    case 'server':
      return 'The server had an error while processing your request (fake upstream).';
    case 'overloaded':
      return 'Overloaded';
    case 'authentication':
      return format === 'openai-chat' ? 'Incorrect API key provided.' : 'invalid x-api-key';
    case 'not-found':
      return 'The requested resource does not exist (fake upstream).';
    case 'context-length':
      return format === 'openai-chat'
        ? `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`
        : `prompt is too long: ${promptTokens} tokens > ${maxTokens} maximum`;
    case 'content-filter':
      return format === 'openai-chat'
        ? 'The response was filtered due to the prompt triggering the content management policy.'
        : 'Output blocked by content filtering policy';
    case 'bad-request':
      return 'Invalid request (fake upstream).';
  }
}

const openAiTypeAndCode: Record<ErrorKind, { type: string | null; code: string | null; param: string | null }> = {
  'rate-limit': { type: 'requests', code: 'rate_limit_exceeded', param: null },
  server: { type: 'server_error', code: null, param: null },
  overloaded: { type: 'server_error', code: null, param: null },
  authentication: { type: 'invalid_request_error', code: 'invalid_api_key', param: null },
  'not-found': { type: 'invalid_request_error', code: 'model_not_found', param: null },
  'context-length': { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' },
  'content-filter': { type: 'invalid_request_error', code: 'content_filter', param: 'prompt' },
  'bad-request': { type: 'invalid_request_error', code: null, param: null },
};

const anthropicType: Record<ErrorKind, string> = {
  'rate-limit': 'rate_limit_error',
  server: 'api_error',
  overloaded: 'overloaded_error',
  authentication: 'authentication_error',
  'not-found': 'not_found_error',
  'context-length': 'invalid_request_error',
  'content-filter': 'invalid_request_error',
  'bad-request': 'invalid_request_error',
};

export function errorBody(behaviour: ErrorBehaviour, format: ApiFormat, requestId: string): unknown {
  if (behaviour.body !== undefined) return behaviour.body;
  const kind = behaviour.error ?? defaultErrorKind(behaviour.status);
  const message = behaviour.message ?? defaultMessage(behaviour, kind, format);
  if (format === 'openai-chat') {
    const { type, code, param } = openAiTypeAndCode[kind];
    return { error: { message, type, param, code } };
  }
  return { type: 'error', error: { type: anthropicType[kind], message }, request_id: requestId };
}

export function errorHeaders(behaviour: ErrorBehaviour): Record<string, string> {
  const headers: Record<string, string> = { ...behaviour.headers };
  if (behaviour.retryAfter !== undefined) headers['retry-after'] = String(behaviour.retryAfter);
  if (behaviour.retryAfterMs !== undefined) headers['retry-after-ms'] = String(behaviour.retryAfterMs);
  return headers;
}

/** The SSE event a provider sends when a stream fails after it started. */
export function midStreamErrorEvent(kind: ErrorKind, format: ApiFormat): string {
  const behaviour: ErrorBehaviour = { kind: 'error', status: 200, error: kind };
  if (format === 'openai-chat') return `data: ${JSON.stringify(errorBody(behaviour, format, ''))}\n\n`;
  // Anthropic's in-stream error event has the error envelope without a request_id.
  const payload = { type: 'error', error: { type: anthropicType[kind], message: defaultMessage(behaviour, kind, format) } };
  return `event: error\ndata: ${JSON.stringify(payload)}\n\n`;
}
