import type { IncomingMessage } from 'node:http';
import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';
import type { ClientHints, Continuation } from '../../core/turn.js';
import type { ClientResponse } from '../../pipeline/client-response.js';
import type { Gateway } from '../../pipeline/gateway.js';
import { type ChatRequestContext, handleTurn } from '../../pipeline/handle-turn.js';
import { principalOf } from '../../security/principal.js';
import { forwardableHeaders, forwardableQuery, readClientHints } from '../client-hints.js';
import { readJsonRequest } from '../read-body.js';

export type { ChatRequestContext } from '../../pipeline/handle-turn.js';

/**
 * A body an inbound adapter (Responses, Gemini) already read and translated into chat completions, with the
 * session hints it found in its own API's fields.
 */
export interface TranslatedInbound {
  body: JsonObject;
  length: number;
  hints?: ClientHints;
  /** The stored conversation the request continues (Responses `previous_response_id`). */
  continuation?: Continuation;
}

/**
 * `POST /v1/chat/completions` and `/v1/messages` (and the inbound adapters that translate into them): the HTTP
 * side of a turn — the body (bounded), the headers that steer routing or go upstream, the caller as the auth step
 * decided — handed to the pipeline's `handleTurn`, which answers on `response`.
 */
export async function handleChat(
  gateway: Gateway,
  format: ApiFormat,
  request: IncomingMessage,
  response: ClientResponse,
  context: ChatRequestContext,
  inbound?: TranslatedInbound,
): Promise<void> {
  const forwardQuery = forwardableQuery(request.url);
  await handleTurn(
    gateway,
    {
      format,
      context,
      readBody: async () => inbound ?? (await readJsonRequest(request, gateway.config.server.body_limit_bytes)),
      hints: { ...readClientHints(request.headers), ...inbound?.hints },
      principal: principalOf(request),
      forwardHeaders: forwardableHeaders(request.headers),
      ...(forwardQuery !== undefined ? { forwardQuery } : {}),
      ...(inbound?.continuation !== undefined ? { continuation: inbound.continuation } : {}),
    },
    response,
  );
}
