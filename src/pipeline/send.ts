import type { ClientResponse } from './client-response.js';
import type { ApiFormat } from '../core/api-format.js';
import type { GatewayError } from '../core/errors.js';
import { renderError } from '../wire/render-error.js';
import { redactJson } from '../core/redact.js';

export function sendJson(response: ClientResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function sendError(
  response: ClientResponse,
  error: GatewayError,
  format: ApiFormat,
  headers: Record<string, string> = {},
): void {
  const rendered = renderError(error, format);
  const extra: Record<string, string> = { ...headers };
  if (error.retryAfterMs !== undefined && error.status === 429) extra['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  // A spent budget comes back only when its window resets: the SDKs' automatic 429 retries would be wasted calls.
  if (error.errorClass === 'budget_exceeded') extra['x-should-retry'] = 'false';
  // The last gate before a client: no configured secret leaves in an error, whichever path built it.
  sendJson(response, rendered.status, redactJson(rendered.body), extra);
}
