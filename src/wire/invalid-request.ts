import { GatewayError } from '../core/errors.js';

/** The one error a decoder throws: a 400 whose message names the offending field, as the APIs themselves do. */
export function invalidRequest(message: string): GatewayError {
  return new GatewayError('invalid_request', message);
}
