import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { GatewayError } from '../../../core/errors.js';
import { PolicyRevisionConflict } from '../../../store/policy/policy-store.js';
import { toolRoutingModes } from '../../../tools/config.js';
import { saveRouterMode } from '../../../tools/router-mode-policy.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import { readJsonBody } from '../../read-body.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from './admin-auth.js';

const modeRequestSchema = z.object({ mode: z.enum(toolRoutingModes) }).strict();

function view(gateway: Gateway) {
  return {
    mode: gateway.toolRoutingMode,
    restart_required: false,
    modes: toolRoutingModes,
    revision: gateway.switches.revision,
    policy_file: gateway.switches.location,
  };
}

/**
 * `GET /v1/config/router` and `POST /v1/config/router {"mode": "on"|"shadow"|"off"}`: tool routing switched
 * live (admin only). The mode is saved in the routing policy next to the model switches, so in a cluster every
 * instance follows it. `off` restores the full surface of narrowed sessions on their next turn.
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
    // Saved first and applied once saved (through the policy's change listener): a failed save leaves the
    // running mode unchanged.
    try {
      await saveRouterMode(gateway.switches, parsed.data.mode, 'admin-api');
    } catch (error) {
      if (error instanceof PolicyRevisionConflict) throw new GatewayError('invalid_request', `${error.message}.`, { status: 409 });
      gateway.logger.error({ err: error }, 'saving the tool routing mode failed');
      throw new GatewayError('internal', `Saving ${gateway.switches.location} failed; the running mode is unchanged (${error instanceof Error ? error.message : String(error)}).`);
    }
    gateway.toolRoutingMode = parsed.data.mode;
    sendJson(response, 200, view(gateway));
  } catch (caught) {
    request.resume();
    sendError(response, caught instanceof GatewayError ? caught : new GatewayError('internal', String(caught)), 'openai-chat');
  }
  return true;
}
