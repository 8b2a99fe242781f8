import type { Dispatcher } from 'undici';
import type { ApiFormat } from '../../core/api-format.js';
import type { GatewayError } from '../../core/errors.js';
import { classifyUpstreamStatus } from './classify-status.js';
import { classifyTransportError } from './classify-transport-error.js';

const maximumErrorBodyBytes = 64 * 1024;

/** Reads (a bounded prefix of) an error response's body and classifies it. */
export async function classifyStatusAndDrain(
  response: Dispatcher.ResponseData,
  headers: Record<string, string>,
  format: ApiFormat,
  providerId: string,
  signal: AbortSignal,
): Promise<GatewayError> {
  let text = '';
  try {
    for await (const chunk of response.body) {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.length > maximumErrorBodyBytes) {
        response.body.destroy();
        break;
      }
    }
  } catch (error) {
    if (text.length === 0) return classifyTransportError(error, providerId, signal);
  }
  return classifyUpstreamStatus(response.statusCode, headers, text, format, providerId);
}
