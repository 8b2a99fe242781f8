import type { ApiFormat } from '../../core/api-format.js';
import { GatewayError } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';
import { parseRetryAfter } from './retry-after.js';
import { redactJson, redactSecrets } from '../../core/redact.js';

const contextLengthPattern =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|reduce the length|input is too long/i;
const contentFilterPattern = /content[_ ]filter|content management policy|safety system|flagged as|responsible ai policy/i;

function upstreamMessage(body: unknown, fallback: string): { message: string; code: string | undefined } {
  if (isJsonObject(body)) {
    const error = body.error;
    if (isJsonObject(error)) {
      const message = typeof error.message === 'string' ? error.message : fallback;
      const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
      return { message, code };
    }
    if (typeof body.message === 'string') return { message: body.message, code: undefined };
  }
  return { message: fallback, code: undefined };
}

/**
 * Turns an upstream error response into a classified GatewayError. The class decides what the attempt loop does:
 * 429 cools the key, 401/403 disables it, 5xx cools and moves on, a context-length 400 moves to a larger model,
 * a content-filter 400 is final, any other 4xx goes back to the client unchanged.
 */
export function classifyUpstreamStatus(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  format: ApiFormat,
  providerId: string,
): GatewayError {
  let body: unknown;
  try {
    // Providers echo keys and tokens in error bodies; nothing of them may reach a client, a log or the ledger.
    body = rawBody.length > 0 ? redactJson(JSON.parse(rawBody)) : undefined;
  } catch {
    body = undefined;
  }
  const found = upstreamMessage(body, rawBody.slice(0, 300) || `HTTP ${status}`);
  const message = redactSecrets(found.message);
  const code = found.code;
  const prefix = `provider ${providerId} answered ${status}: `;
  const upstreamStatus = status;
  if (status === 429) {
    return new GatewayError('rate_limited', prefix + message, { retryAfterMs: parseRetryAfter(headers), status, upstreamStatus });
  }
  if (status === 401 || status === 403) return new GatewayError('upstream_auth', prefix + message, { upstreamStatus });
  if (status >= 500) return new GatewayError('upstream_server_error', prefix + message, { status: 502, upstreamStatus });
  if (code === 'context_length_exceeded' || contextLengthPattern.test(message)) {
    return new GatewayError('context_length', prefix + message, { status, upstreamBody: body, upstreamFormat: format, upstreamStatus });
  }
  if (code === 'content_filter' || contentFilterPattern.test(message)) {
    return new GatewayError('content_filter', prefix + message, { status, upstreamBody: body, upstreamFormat: format, upstreamStatus });
  }
  return new GatewayError('upstream_bad_request', prefix + message, { status, upstreamBody: body, upstreamFormat: format, upstreamStatus });
}
