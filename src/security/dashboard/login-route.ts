import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';
import { errorBody } from '../../wire/render-error.js';
import type { GatewaySecurity } from '../gateway-security.js';
import { hostAllowed, originAllowed } from '../host-origin.js';
import { dashboardSecurityHeaders } from './csp.js';
import { loginLinkPath } from './login-links.js';

export const loginPath = '/auth/login';
export const logoutPath = '/auth/logout';
export const sessionPath = '/auth/session';

const maximumLoginBody = 4 * 1024;
const failedLoginsPerMinute = 10;

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...dashboardSecurityHeaders(), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

function fail(response: ServerResponse, error: GatewayError): void {
  const headers: Record<string, string> = error.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) };
  send(response, error.status, errorBody(error, 'openai-chat'), headers);
}

async function readSmallJson(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length > maximumLoginBody) throw new GatewayError('payload_too_large', 'Login body too large.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError('invalid_request', 'Send {"admin_key": "..."} as JSON.');
  }
}

/**
 * The dashboard's login, for the dashboard to mount as an extra route:
 * - `POST /auth/login {"admin_key": "..."}` → 200 `{csrf_token}` and an HttpOnly, SameSite=Strict session cookie;
 * - `GET /auth/session` → 200 `{csrf_token}` for a live session (a reloaded page gets its token back), else 401;
 * - `POST /auth/logout` → clears the cookie (needs the CSRF token).
 * Every answer carries the dashboard's CSP and security headers. Host and Origin must be allowed. A session
 * store that cannot answer (Redis away in a cluster) gives 503 on all three.
 */
export function dashboardAuthRoute(security: GatewaySecurity) {
  const failures: number[] = [];
  return async (request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> => {
    if (path !== loginPath && path !== logoutPath && path !== sessionPath && path !== loginLinkPath) return false;
    const method = request.method ?? 'GET';
    try {
      if (!hostAllowed(request, security.allowedHosts) || !originAllowed(request, security.allowedHosts)) {
        throw new GatewayError('permission', 'This Host or Origin is not allowed for the dashboard; add it to auth.allowed_hosts if it is yours.');
      }
      if (path === loginLinkPath && method === 'GET') {
        request.resume();
        const token = new URL(request.url ?? path, 'http://gateway').searchParams.get('token') ?? '';
        if (!security.loginLinks.redeem(token)) {
          const text = 'This login link was already used or has expired. Run `hermes-router dashboard` on the gateway\'s machine for a new one, or log in with the admin key.\n';
          response.writeHead(401, { ...dashboardSecurityHeaders(), 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
          response.end(text);
          return true;
        }
        const { setCookie } = await security.sessions.open();
        // The page asks /auth/session for its CSRF token on load, as after a reload.
        response.writeHead(302, { ...dashboardSecurityHeaders(), location: '/dashboard/', 'set-cookie': setCookie, 'content-length': '0' });
        response.end();
        return true;
      }
      if (path === sessionPath && method === 'GET') {
        const session = await security.sessions.find(request);
        if (!session) throw new GatewayError('authentication', 'Not logged in.');
        send(response, 200, { csrf_token: session.csrfToken });
        return true;
      }
      if (method !== 'POST') throw new GatewayError('invalid_request', `Use POST for ${path}.`, { status: 405 });
      if (path === logoutPath) {
        const session = await security.sessions.find(request);
        if (session && !security.sessions.csrfValid(request, session)) throw new GatewayError('permission', 'Missing or wrong x-csrf-token.');
        // Deleted from the store before the answer: in a cluster the login then ends on every instance.
        send(response, 200, { logged_out: true }, { 'set-cookie': await security.sessions.close(request) });
        return true;
      }
      const now = Date.now();
      while (failures.length > 0 && (failures[0] ?? now) <= now - 60_000) failures.shift();
      if (failures.length >= failedLoginsPerMinute) {
        throw new GatewayError('rate_limited', 'Too many failed logins; wait a minute.', { retryAfterMs: (failures[0] ?? now) + 60_000 - now });
      }
      const body = await readSmallJson(request);
      const presented = isJsonObject(body) && typeof body.admin_key === 'string' ? body.admin_key : undefined;
      if (presented === undefined || !security.adminKey.matches(presented)) {
        failures.push(now);
        throw new GatewayError('authentication', 'Wrong admin key.');
      }
      // Stored before the cookie goes out, so the next request may reach any instance.
      const { setCookie, csrfToken } = await security.sessions.open();
      send(response, 200, { csrf_token: csrfToken }, { 'set-cookie': setCookie });
    } catch (caught) {
      request.resume();
      fail(response, caught instanceof GatewayError ? caught : new GatewayError('internal', 'Login failed.'));
    }
    return true;
  };
}
