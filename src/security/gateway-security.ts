import type { IncomingMessage } from 'node:http';
import type { ApiFormat } from '../core/api-format.js';
import { GatewayError } from '../core/errors.js';
import type { RequestRecord } from '../core/ledger-record.js';
import type { CounterStore } from '../store/counter-store.js';
import { AdminKey, adminKeyVariable } from './admin-key.js';
import type { AuthConfig } from '../config/auth.js';
import { presentedKeys } from './credentials.js';
import { applicationKeyId } from './create-key.js';
import type { DashboardSessionStore } from '../store/dashboard-session-store.js';
import { DashboardLoginLinks } from './dashboard/login-links.js';
import { DashboardSessions } from './dashboard/sessions.js';
import { FileKeyStore, keyFilePath } from '../store/keys/file-key-store.js';
import { allowedHostNames, hostAllowed, originAllowed } from './host-origin.js';
import { KeyLimiter, hasCountedLimits } from './key-limiter.js';
import type { LimiterLogger } from './key-limiter.js';
import { activeKeys } from '../store/keys/key-store.js';
import type { KeyStore } from '../store/keys/key-store.js';
import { isLoopbackHost } from './loopback.js';
import { setPrincipal } from './principal.js';
import type { Principal } from './principal.js';
import { isStateChanging, routeAccess } from './route-access.js';
import { secretMatches } from './secret-hash.js';

export interface GatewaySecurityOptions {
  config: AuthConfig;
  /** The address the server binds (`server.host`). */
  bindHost: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** A finished request's cost in USD, for `cost_per_day_usd`; null when unpriced. */
  costOf?: (record: RequestRecord) => number | null;
  store?: KeyStore;
  /** Where per-key rate and budget limits count: memory when absent, Redis in a cluster. */
  counters?: CounterStore;
  /** Where dashboard logins live: memory when absent, Redis in a cluster (one login for every instance). */
  dashboardSessions?: DashboardSessionStore;
  /** Told when the counters fail (the limiter then admits uncounted). */
  logger?: LimiterLogger;
  now?: () => number;
}

/** The auth step's answer: immediate, or (a key with counted limits, a dashboard session cookie) once the store answered. */
export type AuthVerdict = AuthDenial | undefined | Promise<AuthDenial | undefined>;

/** Why the auth step refused a request, and the format to say it in. */
export interface AuthDenial {
  error: GatewayError;
  format: ApiFormat;
}

const adminHint = `set ${adminKeyVariable} in the gateway's environment or run "hermes-router keys admin-reset"`;

/**
 * Everything the gateway checks before a route runs: who is calling (admin key, application key, dashboard
 * session, or nobody), whether that caller may use the path, per-key limits, and Host/Origin against DNS
 * rebinding and cross-site requests.
 */
export class GatewaySecurity {
  readonly store: KeyStore;
  readonly adminKey: AdminKey;
  readonly limiter: KeyLimiter;
  readonly sessions: DashboardSessions;
  /** One-time dashboard login links (printed at start, or issued to the admin by `hermes-router dashboard`). */
  readonly loginLinks: DashboardLoginLinks;
  readonly loopback: boolean;
  readonly allowedHosts: ReadonlySet<string>;
  private readonly config: AuthConfig;
  private costOf: (record: RequestRecord) => number | null;
  private readonly logger: LimiterLogger | undefined;
  private lastStoreFailure: string | undefined;

  constructor(options: GatewaySecurityOptions) {
    this.config = options.config;
    this.store = options.store ?? new FileKeyStore(keyFilePath(options.dataDir, options.config.key_file));
    this.adminKey = new AdminKey(this.store, options.env);
    this.limiter = new KeyLimiter({
      ...(options.counters ? { counters: options.counters } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    this.sessions = new DashboardSessions({
      ttlMs: options.config.session_ttl_ms,
      secureCookies: options.config.secure_cookies,
      ...(options.now ? { now: options.now } : {}),
      ...(options.dashboardSessions ? { store: options.dashboardSessions } : {}),
    });
    this.loginLinks = new DashboardLoginLinks(options.now ? { now: options.now } : {});
    this.loopback = isLoopbackHost(options.bindHost);
    this.allowedHosts = allowedHostNames(options.bindHost, options.config.allowed_hosts);
    this.costOf = options.costOf ?? ((record) => record.costUsd);
    this.logger = options.logger;
  }

  /**
   * False while the key store has never been read (Postgres down when this instance started): which keys exist,
   * and so whether keys are required, is unknown. Keys fail closed meanwhile: only the admin key is accepted.
   */
  keysReadable(): boolean {
    return this.store.readable?.() ?? true;
  }

  /** Whether model requests need a key: always off loopback, and on loopback once any application key exists. */
  requiresKeys(): boolean {
    return this.config.require_keys === 'always' || !this.loopback || activeKeys(this.store).length > 0;
  }

  /** Why the gateway must not start, or undefined. */
  startupRefusal(bindHost: string): string | undefined {
    if (this.loopback || this.adminKey.source !== 'none') return undefined;
    return (
      `Refusing to listen on ${bindHost}: it is reachable from other machines and no admin key is set. ` +
      `Set ${adminKeyVariable} to a long random secret (or run "hermes-router keys admin-reset"), create client keys with ` +
      `"hermes-router keys create", or bind to 127.0.0.1 (server.host, --host or HERMES_ROUTER_HOST).`
    );
  }

  /** The principal a set of presented keys proves, if any. */
  identify(keys: readonly string[]): Principal | undefined {
    for (const presented of keys) {
      if (this.adminKey.matches(presented)) return { kind: 'admin', via: 'key' };
      const id = applicationKeyId(presented);
      const key = id === undefined ? undefined : this.store.find(id);
      if (key && key.revoked_at === undefined && secretMatches(presented, key.hash)) return { kind: 'application', key };
    }
    return undefined;
  }

  /**
   * The auth step: undefined lets the request through (its principal recorded), otherwise the answer to send.
   * Only a key with rate or budget limits, or a dashboard session cookie on an admin path, gets a promise (their
   * counters and sessions may be in Redis); every other request is decided synchronously, without a tick of waiting.
   */
  authorize(request: IncomingMessage, path: string, method: string): AuthVerdict {
    try {
      return this.decide(request, path, method);
    } catch (error) {
      // A key store that throws (keys.json damaged while running) fails closed. The client is not told where
      // the file is; the log is, once per distinct failure.
      const detail = error instanceof Error ? error.message : String(error);
      if (detail !== this.lastStoreFailure) this.logger?.warn({ error: detail }, 'the key store cannot be read: requests are refused until it can');
      this.lastStoreFailure = detail;
      const access = routeAccess(path);
      const format: ApiFormat = access.need === 'public' ? 'openai-chat' : access.format;
      return { error: new GatewayError('unavailable', 'The key store cannot be read, so no key can be checked; the gateway log says why.', { retryAfterMs: 5_000 }), format };
    }
  }

  private decide(request: IncomingMessage, path: string, method: string): AuthVerdict {
    const access = routeAccess(path);
    const format: ApiFormat = access.need === 'public' ? (path.includes('messages') ? 'anthropic-messages' : 'openai-chat') : access.format;
    // On loopback anything a browser can be tricked into sending is refused: with no keys, chat is open there.
    if (this.loopback && (!hostAllowed(request, this.allowedHosts) || !originAllowed(request, this.allowedHosts))) {
      return { error: new GatewayError('permission', 'This Host or Origin is not allowed; add it to auth.allowed_hosts if it is yours.'), format };
    }
    if (access.need === 'public') {
      setPrincipal(request, { kind: 'anonymous' });
      return undefined;
    }
    const keys = presentedKeys(request);
    const principal = this.identify(keys);
    if (access.need === 'admin') return this.authorizeAdmin(request, method, principal, keys.length > 0, format);
    if (principal?.kind !== 'admin' && !this.keysReadable()) {
      return {
        error: new GatewayError(
          'unavailable',
          `The key store (${this.store.location}) cannot be read yet, so no key can be checked; requests are refused until it can (the admin key still works).`,
          { retryAfterMs: 5_000 },
        ),
        format,
      };
    }
    if (!principal) {
      if (!this.requiresKeys()) {
        setPrincipal(request, { kind: 'anonymous' });
        return undefined;
      }
      const message =
        keys.length === 0
          ? 'This gateway needs an API key: send "Authorization: Bearer <key>" or "x-api-key: <key>" (create one with "hermes-router keys create").'
          : 'The API key is not valid or was revoked.';
      return { error: new GatewayError('authentication', message), format };
    }
    if (principal.kind === 'application') {
      if (!principal.key.scopes.includes(access.scope)) {
        return { error: new GatewayError('permission', `This key lacks the "${access.scope}" scope.`), format };
      }
      if ((access.scope === 'chat' || access.scope === 'embeddings') && hasCountedLimits(principal.key.limits)) {
        return this.admitLimited(request, principal, format);
      }
    }
    setPrincipal(request, principal);
    return undefined;
  }

  private async admitLimited(
    request: IncomingMessage,
    principal: Extract<Principal, { kind: 'application' }>,
    format: ApiFormat,
  ): Promise<AuthDenial | undefined> {
    const verdict = await this.limiter.admit(principal.key.id, principal.key.limits);
    if (verdict.unknownTotals !== undefined) {
      return {
        error: new GatewayError('unavailable', `This key has a daily limit and ${verdict.unknownTotals}; it is refused until they are known again.`, {
          retryAfterMs: verdict.retryAfterMs,
        }),
        format,
      };
    }
    if (verdict.exceeded) {
      return {
        error: new GatewayError('rate_limited', `This key reached its ${verdict.exceeded.replaceAll('_', ' ')} limit.`, { retryAfterMs: verdict.retryAfterMs }),
        format,
      };
    }
    setPrincipal(request, principal);
    return undefined;
  }

  private authorizeAdmin(
    request: IncomingMessage,
    method: string,
    principal: Principal | undefined,
    presentedAny: boolean,
    format: ApiFormat,
  ): AuthVerdict {
    if (principal?.kind === 'admin') {
      setPrincipal(request, principal);
      return undefined;
    }
    if (principal?.kind === 'application') {
      // Application keys never change routing or configuration; `admin` scope lets them read it.
      if (principal.key.scopes.includes('admin') && !isStateChanging(method)) {
        setPrincipal(request, principal);
        return undefined;
      }
      return { error: new GatewayError('permission', 'Application keys cannot change routing or configuration; use the admin key.'), format };
    }
    // Only a request with a session cookie waits for the session store (Redis in a cluster).
    if (!presentedAny && this.sessions.presented(request)) return this.admitSession(request, method, format);
    return this.adminDenial(format);
  }

  private async admitSession(request: IncomingMessage, method: string, format: ApiFormat): Promise<AuthDenial | undefined> {
    let session;
    try {
      session = await this.sessions.find(request);
    } catch (error) {
      // Fail closed: a login that cannot be checked is refused (503), never assumed (ARCHITECTURE.md).
      return { error: error instanceof GatewayError ? error : new GatewayError('unavailable', 'Dashboard logins cannot be checked right now.'), format };
    }
    if (session === undefined) return this.adminDenial(format);
    // A cookie rides along with any request the browser makes, so the Origin and CSRF token must prove the page is ours.
    if (!hostAllowed(request, this.allowedHosts) || !originAllowed(request, this.allowedHosts)) {
      return { error: new GatewayError('permission', 'This Host or Origin is not allowed for dashboard sessions.'), format };
    }
    if (isStateChanging(method) && !this.sessions.csrfValid(request, session)) {
      return { error: new GatewayError('permission', 'Missing or wrong x-csrf-token for this dashboard session.'), format };
    }
    setPrincipal(request, { kind: 'admin', via: 'session' });
    return undefined;
  }

  private adminDenial(format: ApiFormat): AuthDenial {
    if (this.adminKey.source === 'none') {
      return { error: new GatewayError('permission', `The admin API is disabled: no admin key is set. To enable it, ${adminHint}, then send "Authorization: Bearer <that key>".`), format };
    }
    return { error: new GatewayError('authentication', `The admin API needs "Authorization: Bearer <admin key>" (${adminKeyVariable} or the key printed at first start).`), format };
  }

  /** Prices requests from now on with a reloaded config's prices (`record-cost.ts`). */
  reprice(costOf: (record: RequestRecord) => number | null): void {
    this.costOf = costOf;
  }

  /**
   * Adds a finished request's tokens and cost to its key's daily totals (in the background; never rejects). Only
   * for keys with a daily limit: limits never change after creation, and in a cluster each add is a Redis write.
   */
  recordUsage(record: RequestRecord): Promise<void> {
    const keyId = record.clientKeyId;
    if (keyId === undefined || keyId === 'admin' || record.usage === undefined) return Promise.resolve();
    const limits = this.store.find(keyId)?.limits;
    if (limits?.tokens_per_day === undefined && limits?.cost_per_day_usd === undefined) return Promise.resolve();
    const tokens = record.usage.inputTokens + record.usage.outputTokens;
    return this.limiter.recordUsage(keyId, tokens, this.costOf(record) ?? 0);
  }
}

const attached = new WeakMap<object, GatewaySecurity>();

/** Ties a security instance to the gateway it guards (the server, chat route and dashboard look it up). */
export function attachSecurity(owner: object, security: GatewaySecurity): void {
  attached.set(owner, security);
}

export function securityOf(owner: object): GatewaySecurity | undefined {
  return attached.get(owner);
}

/** The server's auth step. A gateway without security attached (a bare test server) lets everything through. */
export function authorizeRequest(owner: object, request: IncomingMessage, path: string, method: string): AuthVerdict {
  return attached.get(owner)?.authorize(request, path, method);
}
