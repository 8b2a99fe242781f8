import { GatewayError } from '../../core/errors.js';

/** The default for `server.upstream_response_limit_bytes`: as large as the largest request body a client may send. */
export const defaultResponseLimitBytes = 16 * 1024 * 1024;

/**
 * An upstream answer (a buffered body, or one streamed event) larger than the limit: a 502 in the client's
 * format. Final, like a content filter: another candidate asked the same question would likely answer as much,
 * and holding several such answers is what the limit prevents. The key is not rested: it did nothing wrong.
 */
export function responseTooLarge(providerId: string, limitBytes: number, what: 'response' | 'stream event'): GatewayError {
  return new GatewayError(
    'upstream_too_large',
    `provider ${providerId} sent a ${what} larger than ${limitBytes} bytes (server.upstream_response_limit_bytes); it was not read further`,
    { status: 502 },
  );
}

/**
 * Reads a body into memory up to `limitBytes`, then stops reading and destroys it: a body over the limit is
 * never held whole.
 */
export async function readBounded(
  body: AsyncIterable<Uint8Array | string> & { destroy(): unknown },
  limitBytes: number,
  tooLarge: () => GatewayError,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += bytes.byteLength;
    if (total > limitBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
