import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../../core/errors.js';
import { principalOf } from '../../../security/principal.js';

export const adminKeyVariable = 'HERMES_ROUTER_ADMIN_KEY';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The admin API is off until an admin key is set in the environment (application keys can never change
 * routing). Returns the error to answer with, or undefined when the caller is the admin.
 */
export function adminRejection(request: IncomingMessage, env: NodeJS.ProcessEnv): GatewayError | undefined {
  // The server's auth step (src/security) already decided: the admin key, a dashboard session, or an
  // application key with the admin scope reading. Application keys never reach a state-changing admin route.
  const principal = principalOf(request);
  if (principal?.kind === 'admin') return undefined;
  if (principal?.kind === 'application') {
    const reading = request.method === 'GET' || request.method === 'HEAD';
    return reading && principal.key.scopes.includes('admin')
      ? undefined
      : new GatewayError('permission', 'Application keys cannot change routing or configuration; use the admin key.');
  }
  // No auth step ran (a server built without security): the environment's key alone.
  const adminKey = env[adminKeyVariable];
  if (!adminKey) {
    return new GatewayError(
      'permission',
      `The admin API is disabled. Set ${adminKeyVariable} in the gateway's environment, restart it, and send "Authorization: Bearer <that key>".`,
    );
  }
  const header = request.headers.authorization ?? '';
  const presented = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
  // Compare digests so neither the length nor the content of the key leaks through timing.
  if (!presented || !timingSafeEqual(digest(presented), digest(adminKey))) {
    return new GatewayError('authentication', `The admin API needs "Authorization: Bearer <${adminKeyVariable}>".`);
  }
  return undefined;
}
