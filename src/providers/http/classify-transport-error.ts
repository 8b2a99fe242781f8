import { loadUndici } from './undici-agent.js';
import { GatewayError } from '../../core/errors.js';

/** Maps a transport failure (no usable HTTP response) to the error class the attempt loop understands. */
export function classifyTransportError(error: unknown, providerId: string, signal: AbortSignal): GatewayError {
  if (error instanceof GatewayError) return error;
  if (signal.aborted) {
    return new GatewayError('client_closed', `request to ${providerId} cancelled: the client went away`, { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  const { errors } = loadUndici();
  if (error instanceof errors.HeadersTimeoutError) {
    return new GatewayError('timeout', `provider ${providerId} sent no response in time (first-byte timeout)`, { cause: error });
  }
  if (error instanceof errors.BodyTimeoutError) {
    return new GatewayError('timeout', `provider ${providerId} went silent mid-response (idle timeout)`, { cause: error });
  }
  if (error instanceof errors.ConnectTimeoutError) {
    return new GatewayError('timeout', `could not connect to provider ${providerId} in time`, { cause: error });
  }
  return new GatewayError('connection', `connection to provider ${providerId} failed: ${detail}`, { cause: error });
}
