import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../../../core/errors.js';
import { loginLinkPath } from '../../../security/dashboard/login-links.js';
import { securityOf } from '../../../security/gateway-security.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from './admin-auth.js';

export const dashboardLinkPath = '/v1/admin/dashboard-link';

/**
 * `POST /v1/admin/dashboard-link` (admin only): a one-time dashboard login link, for `hermes-router dashboard`,
 * so a gateway started long ago (a service) can still be logged into without pasting the admin key.
 */
export async function handleDashboardLinkRoute(gateway: Gateway, request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> {
  if (path !== dashboardLinkPath) return false;
  request.resume();
  try {
    const rejection = adminRejection(request, gateway.env);
    if (rejection) throw rejection;
    if (request.method !== 'POST') throw new GatewayError('invalid_request', `Use POST for ${path}.`, { status: 405 });
    const security = securityOf(gateway);
    if (!security) throw new GatewayError('not_found', 'This gateway has no dashboard logins.');
    const token = security.loginLinks.issue();
    sendJson(response, 200, { path: `${loginLinkPath}?token=${token}`, expires_in_s: Math.round(security.loginLinks.ttlMs / 1000) });
  } catch (caught) {
    sendError(response, caught instanceof GatewayError ? caught : new GatewayError('internal', 'Issuing a login link failed.'), 'openai-chat');
  }
  return true;
}
