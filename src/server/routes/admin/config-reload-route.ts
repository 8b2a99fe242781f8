import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from '../../../config/config-error.js';
import { GatewayError } from '../../../core/errors.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from './admin-auth.js';

/**
 * `POST /v1/config/reload` (admin): re-reads the config file and applies it to the next request, like SIGHUP.
 * A config with errors is refused whole (400, the problems named) and the running one stays.
 */
export async function handleConfigReloadRoute(gateway: Gateway, request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> {
  if (path !== '/v1/config/reload') return false;
  request.resume();
  try {
    const rejection = adminRejection(request, gateway.env);
    if (rejection) throw rejection;
    if (request.method !== 'POST') throw new GatewayError('invalid_request', 'Use POST for /v1/config/reload.', { status: 405 });
    let result;
    try {
      result = await gateway.reloadFromSource();
    } catch (error) {
      if (error instanceof ConfigError) {
        gateway.logger.warn({ problems: error.problems }, 'config reload refused; the running config is unchanged');
        throw new GatewayError('invalid_request', `${error.message}\nThe running config is unchanged.`);
      }
      throw error;
    }
    sendJson(response, 200, { reloaded: true, providers: result.providers, models: result.models, restart_required: result.restartRequired });
  } catch (caught) {
    sendError(response, caught instanceof GatewayError ? caught : new GatewayError('internal', String(caught)), 'openai-chat');
  }
  return true;
}
