import { GatewayError } from '../core/errors.js';
import { isJsonObject } from '../core/json.js';
import type { SseEvent } from '../providers/provider.js';

/**
 * Some providers answer 200 and then put the failure in the first stream event (Anthropic `event: error` with
 * `overloaded_error`; OpenRouter `data: {"error": …}`), or send garbage. Caught before anything reaches the
 * client, such a stream can still fail over, so the first event is checked here.
 */
export function firstEventError(event: SseEvent, providerId: string): GatewayError | undefined {
  if (event.data === '[DONE]') return new GatewayError('upstream_server_error', `provider ${providerId} sent an empty stream`);
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    return new GatewayError('upstream_server_error', `provider ${providerId} sent a malformed stream chunk`);
  }
  if (!isJsonObject(payload)) return new GatewayError('upstream_server_error', `provider ${providerId} sent a malformed stream chunk`);
  const error = payload.error;
  if (event.event !== 'error' && payload.type !== 'error' && error === undefined) return undefined;
  const detail = isJsonObject(error) ? error : {};
  const type = typeof detail.type === 'string' ? detail.type : typeof detail.code === 'string' ? detail.code : '';
  const message = `provider ${providerId} streamed an error: ${typeof detail.message === 'string' ? detail.message : type || 'unknown'}`;
  if (type.includes('rate_limit')) return new GatewayError('rate_limited', message);
  return new GatewayError('upstream_server_error', message);
}
