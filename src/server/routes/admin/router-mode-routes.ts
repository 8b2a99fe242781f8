import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { GatewayError } from '../../../core/errors.js';
import { toolRoutingModes } from '../../../tools/config.js';
import { writeRouterMode } from '../../../tools/router-mode-file.js';
import type { Gateway } from '../../gateway.js';
import { readJsonBody } from '../../read-body.js';
import { sendError, sendJson } from '../../send.js';
import { adminRejection } from './admin-auth.js';

const modeRequestSchema = z.object({ mode: z.enum(toolRoutingModes) }).strict();

function view(gateway: Gateway) {
  return { mode: gateway.toolRoutingMode, restart_required: false, modes: toolRoutingModes };
}

/**
 * `GET /v1/config/router` and `POST /v1/config/router {"mode": "on"|"shadow"|"off"}`: tool routing switched
 * live (admin only). `off` restores the full surface of narrowed sessions on their next turn.
 */
export async function handleRouterModeRoutes(gateway: Gateway, request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> {
  if (path !== '/v1/config/router') return false;
  try {
    const rejection = adminRejection(request, gateway.env);
    if (rejection) throw rejection;
    if (request.method === 'GET') {
      sendJson(response, 200, view(gateway));
      return true;
    }
    if (request.method !== 'POST') throw new GatewayError('invalid_request', 'Use GET or POST for /v1/config/router.', { status: 405 });
    const parsed = modeRequestSchema.safeParse(await readJsonBody(request, 16 * 1024));
    if (!parsed.success) throw new GatewayError('invalid_request', `Send {"mode": ${toolRoutingModes.map((mode) => `"${mode}"`).join(' | ')}}.`);
    // Persist first: a failed save leaves the running mode unchanged.
    writeRouterMode(gateway.dataDir, parsed.data.mode);
    gateway.toolRoutingMode = parsed.data.mode;
    gateway.logger.info({ mode: parsed.data.mode }, 'tool routing mode changed');
    sendJson(response, 200, view(gateway));
  } catch (caught) {
    request.resume();
    sendError(response, caught instanceof GatewayError ? caught : new GatewayError('internal', String(caught)), 'openai-chat');
  }
  return true;
}
