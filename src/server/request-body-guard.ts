import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiFormat } from '../core/api-format.js';
import { GatewayError } from '../core/errors.js';
import { sendError } from '../pipeline/send.js';

export interface RequestBodyGuardSettings {
  /** From the request's headers to the last byte of its body. */
  bodyTimeoutMs: number;
  /** Requests of one client address whose body is still arriving. */
  maxUnfinishedPerClient: number;
}

/**
 * Slow bodies (headers, then a byte every few seconds) would hold a connection, a socket and a file descriptor
 * for as long as the client likes. Every request whose body has not fully arrived is watched: past the body
 * timeout it gets 408 in its client's format and the connection is closed (if a route already answered, the
 * connection is just closed); and one client address may have only so many such requests at a time (429).
 * A request stops being watched when its body ends (routes read it at once; an unread one is drained by node
 * after the response) or its connection closes.
 */
export class RequestBodyGuard {
  readonly #unfinished = new Map<string, number>();

  constructor(private readonly settings: RequestBodyGuardSettings) {}

  /** Watches `request`; answers 429 itself and returns false when the client has too many unfinished ones. */
  admit(request: IncomingMessage, response: ServerResponse, format: ApiFormat): boolean {
    if (request.complete) return true;
    const client = request.socket.remoteAddress ?? 'unknown';
    const count = this.#unfinished.get(client) ?? 0;
    if (count >= this.settings.maxUnfinishedPerClient) {
      sendError(
        response,
        new GatewayError(
          'rate_limited',
          `Too many requests from this client are still sending their body (server.max_unfinished_requests_per_client = ${this.settings.maxUnfinishedPerClient}).`,
          { retryAfterMs: 1_000 },
        ),
        format,
        { connection: 'close' },
      );
      response.on('finish', () => request.socket.destroy());
      return false;
    }
    this.#unfinished.set(client, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      const left = (this.#unfinished.get(client) ?? 1) - 1;
      if (left <= 0) this.#unfinished.delete(client);
      else this.#unfinished.set(client, left);
    };
    const timer = setTimeout(() => {
      release();
      const error = new GatewayError('timeout', `The request body did not arrive within ${this.settings.bodyTimeoutMs} ms (server.body_timeout_ms).`, { status: 408 });
      // Destroying the request with the error ends a route's read of it (a plain socket close would leave the
      // read waiting), and closes the connection.
      const hangUp = () => request.destroy(error);
      if (response.headersSent) {
        hangUp();
        return;
      }
      sendError(response, error, format, { connection: 'close' });
      response.on('finish', hangUp);
    }, this.settings.bodyTimeoutMs);
    timer.unref();
    request.once('end', release);
    request.once('close', release);
    return true;
  }

  /** Unfinished requests per client address now (for tests and `/metrics`). */
  unfinished(): number {
    let total = 0;
    for (const count of this.#unfinished.values()) total += count;
    return total;
  }
}
