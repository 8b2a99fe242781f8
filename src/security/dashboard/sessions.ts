import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../core/errors.js';
import { hashSecret } from '../secret-hash.js';
import type { DashboardSession, DashboardSessionStore } from '../../store/dashboard-session-store.js';
import { MemoryDashboardSessionStore } from '../../store/memory/memory-dashboard-session-store.js';

export type { DashboardSession } from '../../store/dashboard-session-store.js';

export const sessionCookieName = 'hermes_router_session';
export const csrfHeaderName = 'x-csrf-token';

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

/** A session store that cannot answer: the login is refused (503), never assumed. */
function storeUnavailable(error: unknown): GatewayError {
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayError(
    'unavailable',
    `Dashboard logins cannot be checked right now (the session store did not answer: ${reason}); try again shortly, or use the admin key as a bearer token.`,
  );
}

/**
 * Dashboard logins: a random session id in an HttpOnly, SameSite=Strict cookie, and a CSRF token the page holds
 * in memory and echoes in `x-csrf-token` on every state-changing request. Sessions are stored under the id's
 * hash (memory for one instance, Redis in a cluster), so neither a heap dump nor Redis holds usable cookies.
 * Reads are asynchronous; a store that fails makes them reject with a 503 `GatewayError`.
 */
export class DashboardSessions {
  readonly store: DashboardSessionStore;

  constructor(
    private readonly options: { ttlMs: number; secureCookies: boolean; now?: () => number; store?: DashboardSessionStore },
  ) {
    this.store = options.store ?? new MemoryDashboardSessionStore(options.now ? { now: options.now } : {});
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Starts a session once it is stored: returns the `Set-Cookie` value and the CSRF token to hand the page. */
  async open(): Promise<{ setCookie: string; csrfToken: string }> {
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    try {
      await this.store.save(hashSecret(id), { csrfToken, expiresAt: this.now() + this.options.ttlMs }, this.options.ttlMs);
    } catch (error) {
      throw storeUnavailable(error);
    }
    const maxAge = Math.floor(this.options.ttlMs / 1000);
    const secure = this.options.secureCookies ? '; Secure' : '';
    return { setCookie: `${sessionCookieName}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`, csrfToken };
  }

  /** Whether the request carries a session cookie at all (no store read: requests without one never wait). */
  presented(request: IncomingMessage): boolean {
    return cookieValue(request, sessionCookieName) !== undefined;
  }

  /** The live session the request's cookie names, if any. */
  async find(request: IncomingMessage): Promise<DashboardSession | undefined> {
    const id = cookieValue(request, sessionCookieName);
    if (!id) return undefined;
    try {
      return await this.store.load(hashSecret(id));
    } catch (error) {
      throw storeUnavailable(error);
    }
  }

  /** Whether the request echoes its session's CSRF token. */
  csrfValid(request: IncomingMessage, session: DashboardSession): boolean {
    const header = request.headers[csrfHeaderName];
    const presented = Array.isArray(header) ? header[0] : header;
    return presented !== undefined && sameText(presented, session.csrfToken);
  }

  /** Ends the request's session on every instance; returns the `Set-Cookie` value that clears the cookie. */
  async close(request: IncomingMessage): Promise<string> {
    const id = cookieValue(request, sessionCookieName);
    if (id) {
      try {
        await this.store.delete(hashSecret(id));
      } catch (error) {
        throw storeUnavailable(error);
      }
    }
    return `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
  }
}
