import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hashSecret } from '../secret-hash.js';

export const sessionCookieName = 'hermes_router_session';
export const csrfHeaderName = 'x-csrf-token';

export interface DashboardSession {
  csrfToken: string;
  expiresAt: number;
}

const maximumSessions = 1_000;

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

function sameText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Dashboard logins, in memory: a random session id in an HttpOnly, SameSite=Strict cookie, and a CSRF token the
 * page holds in memory and echoes in `x-csrf-token` on every state-changing request. Sessions are keyed by the
 * id's hash, so a heap dump does not hold usable cookies. A restart logs everyone out.
 */
export class DashboardSessions {
  private readonly sessions = new Map<string, DashboardSession>();

  constructor(
    private readonly options: { ttlMs: number; secureCookies: boolean; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Starts a session: returns the `Set-Cookie` value and the CSRF token to hand the page. */
  open(): { setCookie: string; csrfToken: string } {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    this.sessions.set(hashSecret(id), { csrfToken, expiresAt: this.now() + this.options.ttlMs });
    const maxAge = Math.floor(this.options.ttlMs / 1000);
    const secure = this.options.secureCookies ? '; Secure' : '';
    return { setCookie: `${sessionCookieName}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`, csrfToken };
  }

  /** The live session the request's cookie names, if any. */
  find(request: IncomingMessage): DashboardSession | undefined {
    const id = cookieValue(request, sessionCookieName);
    if (!id) return undefined;
    const key = hashSecret(id);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return session;
  }

  /** Whether the request echoes its session's CSRF token. */
  csrfValid(request: IncomingMessage, session: DashboardSession): boolean {
    const header = request.headers[csrfHeaderName];
    const presented = Array.isArray(header) ? header[0] : header;
    return presented !== undefined && sameText(presented, session.csrfToken);
  }

  /** Ends the request's session; returns the `Set-Cookie` value that clears the cookie. */
  close(request: IncomingMessage): string {
    const id = cookieValue(request, sessionCookieName);
    if (id) this.sessions.delete(hashSecret(id));
    return `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(key);
    // Logins are admin-only, but bound the map anyway: the oldest session goes first.
    while (this.sessions.size >= maximumSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
  }
}
