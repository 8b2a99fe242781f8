import type { ApiFormat } from '../core/api-format.js';
import type { Scope } from '../store/keys/scopes.js';

/** What a path needs, and the error format its clients read. */
export type RouteAccess =
  | { need: 'public' }
  | { need: 'scope'; scope: Scope; format: ApiFormat }
  | { need: 'admin'; format: ApiFormat };

const anthropicPaths = new Set(['/v1/messages', '/anthropic/v1/messages', '/anthropic/messages']);
const openAiChatPaths = new Set(['/v1/chat/completions', '/chat/completions']);

/**
 * The access rule of every path the gateway serves. Unknown paths are public here (they answer 404, or belong
 * to the dashboard, which checks its own session).
 */
export function routeAccess(path: string): RouteAccess {
  if (anthropicPaths.has(path)) return { need: 'scope', scope: 'chat', format: 'anthropic-messages' };
  if (openAiChatPaths.has(path)) return { need: 'scope', scope: 'chat', format: 'openai-chat' };
  // The Responses API: creating a response is chat; reading or deleting a stored one is too (per key).
  if (path === '/v1/responses' || path === '/responses' || path.startsWith('/v1/responses/')) return { need: 'scope', scope: 'chat', format: 'openai-chat' };
  if (/^\/(?:v1beta|v1)\/models\/[^/]+:(?:generateContent|streamGenerateContent|countTokens)$/.test(path)) return { need: 'scope', scope: 'chat', format: 'openai-chat' };
  if (path === '/v1/embeddings' || path === '/embeddings') return { need: 'scope', scope: 'embeddings', format: 'openai-chat' };
  if (path === '/v1/models' || path === '/models') return { need: 'scope', scope: 'models:read', format: 'openai-chat' };
  if (path === '/metrics') return { need: 'scope', scope: 'admin', format: 'openai-chat' };
  if (path === '/v1/config' || path.startsWith('/v1/config/') || path === '/v1/admin' || path.startsWith('/v1/admin/')) {
    return { need: 'admin', format: 'openai-chat' };
  }
  return { need: 'public' };
}

export function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}
