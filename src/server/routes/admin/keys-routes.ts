import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../../../core/errors.js';
import { createApplicationKey } from '../../../security/create-key.js';
import { securityOf } from '../../../security/gateway-security.js';
import { publicKeyView } from '../../../store/keys/key-record.js';
import { newKeyRequestSchema } from '../../../security/key-request.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import { readJsonBody } from '../../read-body.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from './admin-auth.js';

const keyPath = /^\/v1\/admin\/keys\/([a-f0-9]{10})$/;

/**
 * Application keys: `GET /v1/admin/keys`, `POST /v1/admin/keys` (the key is in the answer, once),
 * `DELETE /v1/admin/keys/<id>`. The server's auth step has already required the admin key or a dashboard
 * session with its CSRF token. Returns false for paths it does not own.
 */
export async function handleKeyRoutes(gateway: Gateway, request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> {
  if (path !== '/v1/admin/keys' && !path.startsWith('/v1/admin/keys/')) return false;
  const method = request.method ?? 'GET';
  try {
    const rejection = adminRejection(request, gateway.env);
    if (rejection) throw rejection;
    const security = securityOf(gateway);
    if (!security) throw new GatewayError('unavailable', 'This gateway runs without key management.');
    if (path === '/v1/admin/keys' && method === 'GET') {
      sendJson(response, 200, { keys: security.store.list().map(publicKeyView), keys_required: security.requiresKeys() });
      return true;
    }
    if (path === '/v1/admin/keys' && method === 'POST') {
      const parsed = newKeyRequestSchema.safeParse(await readJsonBody(request, 64 * 1024));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new GatewayError(
          'invalid_request',
          `Send {"name": "...", "scopes": ["chat", "embeddings", "models:read", "admin"], "limits": {...}}${issue ? ` (${issue.path.join('.') || 'body'}: ${issue.message})` : ''}.`,
        );
      }
      const { key, secret } = await createApplicationKey(security.store, parsed.data);
      gateway.logger.info({ keyId: key.id, name: key.name, scopes: key.scopes }, 'application key created');
      sendJson(response, 201, { ...publicKeyView(key), key: secret });
      return true;
    }
    const match = keyPath.exec(path);
    if (match?.[1] && method === 'DELETE') {
      if (!(await security.store.revoke(match[1], new Date()))) throw new GatewayError('not_found', `No active key with id ${match[1]}.`);
      gateway.logger.info({ keyId: match[1] }, 'application key revoked');
      sendJson(response, 200, { id: match[1], revoked: true });
      return true;
    }
    throw new GatewayError('not_found', `No route for ${method} ${path}; use GET or POST /v1/admin/keys, DELETE /v1/admin/keys/<id>.`);
  } catch (caught) {
    request.resume();
    const error = caught instanceof GatewayError ? caught : new GatewayError('internal', 'Managing keys failed.', { cause: caught });
    if (error.errorClass === 'internal') gateway.logger.error({ err: caught }, 'key management failed');
    sendError(response, error, 'openai-chat');
  }
  return true;
}
