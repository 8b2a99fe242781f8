import { loadUndici } from './undici-agent.js';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';
import { GatewayError } from '../../core/errors.js';
import { serializeJsonBody } from '../../wire/raw-body.js';
import type { ProviderResponse, ProviderTimeouts } from '../provider.js';
import { classifyStatusAndDrain } from './read-error-body.js';
import { classifyTransportError } from './classify-transport-error.js';
import { closedWhenReused } from './closed-when-reused.js';
import { sseEvents } from './sse-events.js';
import { defaultResponseLimitBytes, readBounded, responseTooLarge } from './response-limit.js';

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: JsonObject;
  stream: boolean;
  signal: AbortSignal;
  timeouts: ProviderTimeouts;
  /** The format of this call's body when the provider speaks more than one (its errors are read as that format). */
  format?: ApiFormat;
}

/**
 * One keep-alive connection pool per provider (undici Agent) and the request/response plumbing every adapter
 * shares: timeouts mapped to undici's (headersTimeout = first byte, bodyTimeout = idle between chunks), errors
 * classified, streams parsed as SSE.
 */
export class HttpTransport {
  /** Made at the first request (undici loads on first use: undici-agent.ts). */
  private pool: UndiciAgent | undefined;

  constructor(
    private readonly providerId: string,
    private readonly format: ApiFormat,
    private readonly connectTimeoutMs: number,
    /** The largest buffered body, or single stream event, read from this provider. */
    private readonly responseLimitBytes: number = defaultResponseLimitBytes,
  ) {}

  private get agent(): UndiciAgent {
    this.pool ??= new (loadUndici().Agent)({ connect: { timeout: this.connectTimeoutMs }, keepAliveTimeout: 30_000, connections: 128 });
    return this.pool;
  }

  async post(request: TransportRequest): Promise<ProviderResponse> {
    let response: Dispatcher.ResponseData;
    try {
      response = await this.request({
        origin: new URL(request.url).origin,
        path: pathOf(request.url),
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: request.stream ? 'text/event-stream' : 'application/json', ...request.headers },
        body: serializeJsonBody(request.body),
        signal: request.signal,
        headersTimeout: request.timeouts.firstByteMs,
        bodyTimeout: request.timeouts.idleMs,
      });
    } catch (error) {
      throw classifyTransportError(error, this.providerId, request.signal);
    }
    const headers = flattenHeaders(response.headers);
    if (response.statusCode >= 400) {
      throw await classifyStatusAndDrain(response, headers, request.format ?? this.format, this.providerId, request.signal);
    }
    const contentType = headers['content-type'] ?? '';
    if (request.stream && contentType.includes('text/event-stream')) {
      return { kind: 'stream', status: response.statusCode, headers, events: this.guardedEvents(response, request.signal) };
    }
    let text: string;
    try {
      text = await readBounded(response.body, this.responseLimitBytes, () => responseTooLarge(this.providerId, this.responseLimitBytes, 'response'));
    } catch (error) {
      throw classifyTransportError(error, this.providerId, request.signal);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GatewayError('upstream_server_error', `provider ${this.providerId} sent a body that is not JSON`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new GatewayError('upstream_server_error', `provider ${this.providerId} sent a JSON body that is not an object`);
    }
    // A server that ignores `stream: true` answers JSON; dispatch re-emits that as a stream.
    return { kind: 'json', status: response.statusCode, headers, body: body as JsonObject };
  }

  private async *guardedEvents(response: Dispatcher.ResponseData, signal: AbortSignal) {
    try {
      yield* sseEvents(response.body, this.responseLimitBytes, () => responseTooLarge(this.providerId, this.responseLimitBytes, 'stream event'));
    } catch (error) {
      throw classifyTransportError(error, this.providerId, signal);
    } finally {
      // An early return (client gone, translation error) must release the socket instead of leaking it.
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  /** A bodyless GET (model lists, health checks), with one overall timeout. */
  async get(url: string, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<unknown> {
    let response: Dispatcher.ResponseData;
    try {
      response = await this.request({
        origin: new URL(url).origin,
        path: pathOf(url),
        method: 'GET',
        headers,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      throw classifyTransportError(error, this.providerId, signal);
    }
    const flat = flattenHeaders(response.headers);
    if (response.statusCode >= 400) {
      throw await classifyStatusAndDrain(response, flat, this.format, this.providerId, signal);
    }
    const text = await readBounded(response.body, this.responseLimitBytes, () => responseTooLarge(this.providerId, this.responseLimitBytes, 'response'));
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /**
   * One request through the pool; when the provider closed the kept-alive connection it went out on before any
   * answer (`closed-when-reused.ts`), once more on a connection of its own. Not through the pool: its other idle
   * connections date from the same burst and may be closing at the same moment.
   */
  private async request(options: Dispatcher.RequestOptions & { origin: string; signal: AbortSignal }): Promise<Dispatcher.ResponseData> {
    try {
      return await this.agent.request(options);
    } catch (error) {
      if (!closedWhenReused(error) || options.signal.aborted) throw error;
      const fresh = new (loadUndici().Client)(options.origin, { connect: { timeout: this.connectTimeoutMs } });
      try {
        return await fresh.request(options);
      } finally {
        // Closes once the response (body included) is over, or at once if the request failed.
        void fresh.close().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    // Through the getter, as before: a transport closed before its first request refuses later ones as closed.
    await this.agent.close();
  }
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
