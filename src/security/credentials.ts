import type { IncomingMessage } from 'node:http';

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The keys a request presents: `Authorization: Bearer` (OpenAI SDKs, and Anthropic SDKs using an auth token),
 * `x-api-key` (Anthropic SDKs), and Google's `x-goog-api-key` or `?key=` (Gemini SDKs and Gemini CLI). All are
 * tried, since SDKs fill one with a placeholder.
 */
function queryKey(url: string | undefined): string | undefined {
  const queryStart = url?.indexOf('?') ?? -1;
  if (url === undefined || queryStart === -1) return undefined;
  return new URLSearchParams(url.slice(queryStart + 1)).get('key') ?? undefined;
}

export function presentedKeys(request: IncomingMessage): string[] {
  const keys: string[] = [];
  const authorization = first(request.headers.authorization)?.trim() ?? '';
  if (/^bearer\s+/i.test(authorization)) {
    const token = authorization.replace(/^bearer\s+/i, '').trim();
    if (token) keys.push(token);
  }
  for (const presented of [first(request.headers['x-api-key']), first(request.headers['x-goog-api-key']), queryKey(request.url)]) {
    const key = presented?.trim();
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}
