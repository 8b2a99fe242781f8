import type { ApiFormat } from '../core/api-format.js';
import type { GatewayError } from '../core/errors.js';
import { wireFormat } from './formats.js';

export interface RenderedError {
  status: number;
  body: unknown;
}

/** The error body a client of `format` expects, as a plain object (also used for mid-stream error events). */
export function errorBody(error: GatewayError, format: ApiFormat): unknown {
  return wireFormat(format).errorBody(error);
}

/**
 * Renders an error for a client. An upstream 4xx that is returned unchanged keeps the provider's own body when
 * the provider spoke the client's format; otherwise the message is carried over into the client's shape.
 */
export function renderError(error: GatewayError, format: ApiFormat): RenderedError {
  if (error.upstreamBody !== undefined && error.upstreamFormat === format) {
    return { status: error.status, body: error.upstreamBody };
  }
  return { status: error.status, body: errorBody(error, format) };
}
