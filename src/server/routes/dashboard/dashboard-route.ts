import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../../../core/errors.js';
import type { InsightModels } from '../../../insight/insight-models.js';
import type { LedgerStore } from '../../../store/ledger-store.js';
import { LedgerReader } from '../../../insight/ledger-reader.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import type { ExtraRoute } from '../../http-server.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from '../admin/admin-auth.js';
import { presentedKeys } from '../../../security/credentials.js';
import { type GatewaySecurity, securityOf } from '../../../security/gateway-security.js';
import { dashboardAuthRoute, dashboardSecurityHeaders as securityHeaders, hostAllowed, originAllowed } from '../../../security/index.js';
import { type DashboardGatewayView, dashboardApiHandlers } from './dashboard-api.js';
import { parseDashboardQuery } from './dashboard-query.js';
import { type StaticFile, findDashboardDirectory, loadDashboardFiles } from './dashboard-static.js';

export interface DashboardRouteOptions {
  /** The ledger's SQLite file, read through its own read-only connection. */
  ledgerPath: string;
  /**
   * In a cluster, the shared ledger (Postgres) every instance writes, read instead of `ledgerPath`, so each
   * instance's dashboard covers all of them. Not closed by the route (the gateway's ledger owns it).
   */
  ledgerStore?: LedgerStore;
  models: InsightModels;
  /** Holds HERMES_ROUTER_ADMIN_KEY, which the API requires as a bearer token. */
  env: NodeJS.ProcessEnv;
  /** The running gateway's switches and breakers, for the Models view (a function: the gateway starts later). */
  gateway?: () => DashboardGatewayView | undefined;
  /** The gateway's security (admin key, dashboard sessions); without it the API takes the environment's admin key. */
  security?: () => GatewaySecurity | undefined;
  refreshMs?: number;
  /** The folder with index.html, app.js…; found next to package.json when omitted. */
  staticDirectory?: string;
}

/**
 * The security issue's headers (strict CSP: scripts and styles only from this origin, no inline code, no
 * framing), sent on every dashboard response, so the page cannot run injected script even if a value escaped.
 */
export const dashboardSecurityHeaders: Readonly<Record<string, string>> = securityHeaders();

/**
 * Who may read the dashboard API: the admin key as a bearer token (scripts, curl), or a dashboard session
 * cookie from `/auth/login` on an allowed Host and Origin. Reads only, so no CSRF token is needed; the one
 * write the page makes (a model switch) goes to the admin API, which checks the CSRF token itself.
 */
async function dashboardRejection(request: IncomingMessage, security: GatewaySecurity | undefined, env: NodeJS.ProcessEnv): Promise<GatewayError | undefined> {
  if (security === undefined) return adminRejection(request, env);
  if (!hostAllowed(request, security.allowedHosts) || !originAllowed(request, security.allowedHosts)) {
    return new GatewayError('permission', 'This Host or Origin is not allowed for the dashboard; add it to auth.allowed_hosts if it is yours.');
  }
  const keys = presentedKeys(request);
  if (keys.length > 0) {
    return security.identify(keys)?.kind === 'admin' ? undefined : new GatewayError('authentication', 'The dashboard API needs the admin key or a dashboard login.');
  }
  // The session store may be Redis (a cluster); when it cannot answer, find rejects with a 503.
  return (await security.sessions.find(request)) ? undefined : new GatewayError('authentication', 'Log in to the dashboard first (POST /auth/login).');
}

export function gatewayDashboardView(gateway: Gateway): DashboardGatewayView {
  return {
    deployments: () => gateway.catalog.deployments,
    isEnabled: (deployment) => gateway.switches.isEnabled(deployment),
    breakerState: (name) => gateway.breakers.state(name),
    policyRevision: () => gateway.switches.revision,
    budgets: () => gateway.budgets.status(),
  };
}

/** The security of a running gateway, for `DashboardRouteOptions.security`. */
export function gatewaySecurityOf(gateway: Gateway): GatewaySecurity | undefined {
  return securityOf(gateway);
}

function sendFile(response: ServerResponse, file: StaticFile): void {
  response.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(file.body.length),
    ...dashboardSecurityHeaders,
    'cache-control': 'no-cache',
  });
  response.end(file.body);
}

/** Catches the reader up; a ledger that cannot be read (the cluster's Postgres away) is reported as unavailable. */
async function refreshed(reader: LedgerReader): Promise<void> {
  try {
    await reader.refresh();
  } catch (error) {
    throw new GatewayError('unavailable', `The ledger cannot be read right now: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `/dashboard` (the page and its files, which hold no data), `/dashboard/api/<view>` (JSON, admin only: a
 * dashboard session or the admin key) and the security issue's `/auth/login|session|logout`.
 */
export function dashboardRoute(options: DashboardRouteOptions): ExtraRoute & { close(): void } {
  let files: Map<string, StaticFile> | undefined;
  let reader: LedgerReader | undefined;
  let authRoute: { security: GatewaySecurity; route: ReturnType<typeof dashboardAuthRoute> } | undefined;
  const staticFiles = (): Map<string, StaticFile> => {
    if (files === undefined) {
      const directory = options.staticDirectory ?? findDashboardDirectory();
      if (directory === undefined) throw new GatewayError('internal', 'The dashboard files (dashboard/index.html) are missing from this installation.');
      files = loadDashboardFiles(directory);
    }
    return files;
  };
  const route = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> => {
    const security = options.security?.();
    if (path.startsWith('/auth/') && security !== undefined) {
      // The login, session and logout endpoints of the security issue, mounted with the page that uses them.
      if (authRoute?.security !== security) authRoute = { security, route: dashboardAuthRoute(security) };
      return authRoute.route(request, response, path);
    }
    if (path === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      // One place to look: the gateway's root is the dashboard (a person opening the printed address lands there).
      request.resume();
      response.writeHead(302, { location: '/dashboard/', 'content-length': '0', ...dashboardSecurityHeaders });
      response.end();
      return true;
    }
    if (path !== '/dashboard' && !path.startsWith('/dashboard/')) return false;
    request.resume();
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new GatewayError('invalid_request', `Use GET for ${path}.`, { status: 405 });
      }
      if (path.startsWith('/dashboard/api/')) {
        const handler = dashboardApiHandlers[path.slice('/dashboard/api/'.length)];
        if (handler === undefined) throw new GatewayError('not_found', `No dashboard view ${path}.`);
        const rejection = await dashboardRejection(request, security, options.env);
        if (rejection) throw rejection;
        reader ??= options.ledgerStore ? LedgerReader.over(options.ledgerStore) : LedgerReader.open(options.ledgerPath);
        if (reader === undefined) throw new GatewayError('unavailable', `No ledger at ${options.ledgerPath} yet.`);
        await refreshed(reader);
        const query = parseDashboardQuery(request.url ?? path);
        const body = await handler({ reader, models: options.models, gateway: options.gateway?.(), refreshMs: options.refreshMs ?? 10_000 }, query);
        sendJson(response, 200, body, { 'cache-control': 'no-store', ...dashboardSecurityHeaders });
        return true;
      }
      const name = path === '/dashboard' || path === '/dashboard/' ? 'index.html' : path.slice('/dashboard/'.length);
      const file = staticFiles().get(name);
      if (file === undefined) throw new GatewayError('not_found', `No dashboard file ${path}.`);
      sendFile(response, file);
    } catch (caught) {
      sendError(response, toGatewayError(caught), 'openai-chat', dashboardSecurityHeaders);
    }
    return true;
  };
  return Object.assign(route, {
    close: () => {
      void reader?.close();
      reader = undefined;
    },
  });
}
