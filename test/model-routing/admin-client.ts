/** Small helpers for the admin API in tests. */
export const adminKey = 'admin-secret-for-tests';

export async function setSwitch(
  baseUrl: string,
  change: { provider: string; model: string; enabled: boolean },
  options: { key?: string | undefined; ifMatch?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; etag: string | null }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = 'key' in options ? options.key : adminKey;
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
  const response = await fetch(`${baseUrl}/v1/config/models/enabled`, { method: 'POST', headers, body: JSON.stringify(change) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, etag: response.headers.get('etag') };
}

export async function listSwitches(baseUrl: string, key = adminKey): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/v1/config/models`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function chat(
  baseUrl: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer client', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}
