import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../../../core/errors.js';
import type { InsightModels } from '../../../insight/insight-models.js';
import { LedgerReader } from '../../../insight/ledger-reader.js';
import type { Gateway } from '../../gateway.js';
import type { ExtraRoute } from '../../http-server.js';
import { sendError, sendJson } from '../../send.js';
import { adminRejection } from '../admin/admin-auth.js';
import { type DashboardGatewayView, dashboardApiHandlers } from './dashboard-api.js';
import { parseDashboardQuery } from './dashboard-query.js';
import { type StaticFile, findDashboardDirectory, loadDashboardFiles } from './dashboard-static.js';

export interface DashboardRouteOptions {
  /** The ledger's SQLite file, read through its own read-only connection. */
  ledgerPath: string;
  models: InsightModels;
  /** Holds HERMES_ROUTER_ADMIN_KEY, which the API requires as a bearer token. */
  env: NodeJS.ProcessEnv;
  /** The running gateway's switches and breakers, for the Models view (a function: the gateway starts later). */
  gateway?: () => DashboardGatewayView | undefined;
  refreshMs?: number;
  /** The folder with index.html, app.js…; found next to package.json when omitted. */
  staticDirectory?: string;
}

/**
 * Scripts and styles only from this origin, no inline code, no framing; the page talks only to its own API.
 * Sent on every dashboard response, so the page cannot run injected script even if a value escaped rendering.
 */
export const dashboardSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export function gatewayDashboardView(gateway: Gateway): DashboardGatewayView {
  return {
    deployments: () => gateway.catalog.deployments,
    isEnabled: (deployment) => gateway.switches.isEnabled(deployment),
    breakerState: (name) => gateway.breakers.state(name),
    policyRevision: () => gateway.switches.revision,
  };
}

function sendFile(response: ServerResponse, file: StaticFile): void {
  response.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(file.body.length),
    'cache-control': 'no-cache',
    ...dashboardSecurityHeaders,
  });
  response.end(file.body);
}

/**
 * `/dashboard` (the page and its files, which hold no data) and `/dashboard/api/<view>` (JSON, admin only:
 * `Authorization: Bearer <HERMES_ROUTER_ADMIN_KEY>`). The page keeps the key in sessionStorage and sends it as a
 * header, never as a cookie, so another site cannot make the browser send it (no CSRF surface).
 */
export function dashboardRoute(options: DashboardRouteOptions): ExtraRoute & { close(): void } {
  let files: Map<string, StaticFile> | undefined;
  let reader: LedgerReader | undefined;
  const staticFiles = (): Map<string, StaticFile> => {
    if (files === undefined) {
      const directory = options.staticDirectory ?? findDashboardDirectory();
      if (directory === undefined) throw new GatewayError('internal', 'The dashboard files (dashboard/index.html) are missing from this installation.');
      files = loadDashboardFiles(directory);
    }
    return files;
  };
  const route = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> => {
    if (path !== '/dashboard' && !path.startsWith('/dashboard/')) return false;
    request.resume();
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new GatewayError('invalid_request', `Use GET for ${path}.`, { status: 405 });
      }
      if (path.startsWith('/dashboard/api/')) {
        const handler = dashboardApiHandlers[path.slice('/dashboard/api/'.length)];
        if (handler === undefined) throw new GatewayError('not_found', `No dashboard view ${path}.`);
        const rejection = adminRejection(request, options.env);
        if (rejection) throw rejection;
        reader ??= LedgerReader.open(options.ledgerPath);
        if (reader === undefined) throw new GatewayError('unavailable', `No ledger at ${options.ledgerPath} yet.`);
        const query = parseDashboardQuery(request.url ?? path);
        const body = handler({ reader, models: options.models, gateway: options.gateway?.(), refreshMs: options.refreshMs ?? 10_000 }, query);
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
      reader?.close();
      reader = undefined;
    },
  });
}
