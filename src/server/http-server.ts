import { lookupTable } from '../core/lookup-table.js';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ApiFormat } from '../core/api-format.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { Gateway } from '../pipeline/gateway.js';
import { handleChat } from './routes/chat-route.js';
import { handleGemini } from './routes/gemini.js';
import { parseGeminiPath } from '../wire/gemini/request.js';
import { handleCreateResponse, handleStoredResponseRoutes } from './routes/responses.js';
import { handleHealth } from './routes/health.js';
import { handleModels } from './routes/models.js';
import { handleEmbeddings } from './routes/embeddings.js';
import { handleModelSwitchRoutes } from './routes/admin/model-switch-routes.js';
import { handleRouterModeRoutes } from './routes/admin/router-mode-routes.js';
import { handleConfigReloadRoute } from './routes/admin/config-reload-route.js';
import { sendError } from '../pipeline/send.js';
import { RequestBodyGuard } from './request-body-guard.js';
import { authorizeRequest } from '../security/gateway-security.js';
import { routeAccess } from '../security/route-access.js';
import { handleKeyRoutes } from './routes/admin/keys-routes.js';
import { handleDashboardLinkRoute } from './routes/admin/dashboard-link-route.js';

/** Extra routes other modules mount (metrics, admin API, dashboard) without the server knowing them. */
export type ExtraRoute = (request: IncomingMessage, response: ServerResponse, path: string) => Promise<boolean> | boolean;

const chatPaths = lookupTable<ApiFormat>({
  '/v1/chat/completions': 'openai-chat',
  '/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
  // Hermes speaks the Anthropic API to a custom base URL that ends in /anthropic.
  '/anthropic/v1/messages': 'anthropic-messages',
  '/anthropic/messages': 'anthropic-messages',
});

function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/** The error format a path's clients understand, for errors raised before a route is chosen. */
function formatForPath(path: string): ApiFormat {
  return path.includes('messages') || path.startsWith('/anthropic') ? 'anthropic-messages' : 'openai-chat';
}

export function createGatewayServer(gateway: Gateway, extraRoutes: ExtraRoute[] = []): Server {
  const startedAt = Date.now();
  const settings = gateway.config.server;
  const bodyGuard = new RequestBodyGuard({ bodyTimeoutMs: settings.body_timeout_ms, maxUnfinishedPerClient: settings.max_unfinished_requests_per_client });
  // Node's own request timeout is the backstop for the whole request (headers and body) on every path; it does
  // not limit how long a response streams. It is checked every `connectionsCheckingInterval`.
  const requestTimeout = Math.max(settings.request_timeout_ms, settings.headers_timeout_ms, settings.body_timeout_ms);
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
    if (!bodyGuard.admit(request, response, formatForPath(pathOf(request.url ?? '/')))) return;
    void route(gateway, request, response, extraRoutes, startedAt).catch((caught) => {
      const error = toGatewayError(caught);
      gateway.logger.error({ err: caught }, 'unhandled error in a route');
      if (!response.headersSent) sendError(response, error, 'openai-chat');
      else response.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = settings.headers_timeout_ms;
  server.requestTimeout = requestTimeout;
  return server;
}

async function route(
  gateway: Gateway,
  request: IncomingMessage,
  response: ServerResponse,
  extraRoutes: ExtraRoute[],
  startedAt: number,
): Promise<void> {
  const monotonicStart = performance.now();
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const method = request.method ?? 'GET';
  const verdict = authorizeRequest(gateway, request, path, method);
  // A promise only when the answer lives elsewhere (a limited key's counters, a dashboard login in Redis): the
  // rest is decided without waiting.
  const denied = verdict instanceof Promise ? await verdict : verdict;
  if (denied) {
    request.resume();
    sendError(response, denied.error, denied.format);
    return;
  }
  // Model requests only: health, metrics and the admin API stay reachable, so an operator can see and act.
  const access = routeAccess(path);
  const modelRequest = access.need === 'scope' && (access.scope === 'chat' || access.scope === 'embeddings');
  const refusal = modelRequest && method === 'POST' ? gateway.admissionRefusal() : undefined;
  if (refusal !== undefined) {
    request.resume();
    sendError(response, new GatewayError('unavailable', refusal, { retryAfterMs: 5_000 }), formatForPath(path));
    return;
  }
  if (path === '/v1/responses' || path === '/responses') {
    if (method !== 'POST') {
      request.resume();
      sendError(response, new GatewayError('invalid_request', `Use POST for ${path}.`, { status: 405 }), 'openai-chat');
      return;
    }
    await handleCreateResponse(gateway, request, response, { requestId: `hr_${randomUUID()}`, receivedAt: Date.now(), monotonicStart, endpoint: path });
    return;
  }
  if (path.startsWith('/v1/responses/') && (await handleStoredResponseRoutes(gateway, request, response, path, new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1))))) return;
  const gemini = parseGeminiPath(path);
  if (gemini !== undefined) {
    if (method !== 'POST') {
      request.resume();
      sendError(response, new GatewayError('invalid_request', `Use POST for ${path}.`, { status: 405 }), 'openai-chat');
      return;
    }
    await handleGemini(gateway, request, response, gemini, { requestId: `hr_${randomUUID()}`, receivedAt: Date.now(), monotonicStart, endpoint: `/v1beta/models/*:${gemini.method}` });
    return;
  }
  const chatFormat = chatPaths[path];
  if (chatFormat) {
    if (method !== 'POST') {
      sendError(response, new GatewayError('invalid_request', `Use POST for ${path}.`, { status: 405 }), chatFormat);
      return;
    }
    const requestId = `hr_${randomUUID()}`;
    await handleChat(gateway, chatFormat, request, response, { requestId, receivedAt: Date.now(), monotonicStart, endpoint: path });
    return;
  }
  if (method === 'GET' && (path === '/health' || path === '/healthz')) {
    handleHealth(gateway, response, startedAt);
    return;
  }
  if (method === 'GET' && (path === '/v1/models' || path === '/models')) {
    handleModels(gateway, response);
    return;
  }
  if (method === 'POST' && (path === '/v1/embeddings' || path === '/embeddings')) {
    await handleEmbeddings(gateway, request, response, `hr_${randomUUID()}`);
    return;
  }
  if (path.startsWith('/v1/config/models') && (await handleModelSwitchRoutes(gateway, request, response, path))) return;
  if (await handleRouterModeRoutes(gateway, request, response, path)) return;
  if (await handleConfigReloadRoute(gateway, request, response, path)) return;
  if (await handleKeyRoutes(gateway, request, response, path)) return;
  if (await handleDashboardLinkRoute(gateway, request, response, path)) return;
  for (const extra of extraRoutes) {
    if (await extra(request, response, path)) return;
  }
  // Includes /api/v1/models: Hermes probes it on loopback to detect LM Studio, and we are not LM Studio.
  request.resume();
  sendError(response, new GatewayError('not_found', `No route for ${method} ${path}.`), formatForPath(path));
}
