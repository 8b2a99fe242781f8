/** Raw HTTP helpers for the security tests: status, headers and parsed body of one request. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(url, { ...rest, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export const openAiChat = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };
export const anthropicChat = { model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** Through node:http, which (unlike fetch) sends the Host and Origin headers it is given. */
export async function rawCall(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
