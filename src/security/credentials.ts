import type { IncomingMessage } from 'node:http';

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The keys a request presents: `Authorization: Bearer` (OpenAI SDKs, and Anthropic SDKs using an auth token)
 * and `x-api-key` (Anthropic SDKs). Both are tried, since SDKs fill one with a placeholder.
 */
export function presentedKeys(request: IncomingMessage): string[] {
  const keys: string[] = [];
  const authorization = first(request.headers.authorization)?.trim() ?? '';
  if (/^bearer\s+/i.test(authorization)) {
    const token = authorization.replace(/^bearer\s+/i, '').trim();
    if (token) keys.push(token);
  }
  const apiKey = first(request.headers['x-api-key'])?.trim();
  if (apiKey && !keys.includes(apiKey)) keys.push(apiKey);
  return keys;
}
