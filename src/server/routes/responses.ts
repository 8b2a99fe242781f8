import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ClientHints, Continuation } from '../../core/turn.js';
import { clientKeyIdOf } from '../../security/principal.js';
import type { StoredResponse } from '../../store/response-store.js';
import { ResponsesAnswerRecorder } from '../../wire/openai-responses/answer-codec.js';
import { responsesId } from '../../wire/openai-responses/ids.js';
import { readResponsesRequest } from '../../wire/openai-responses/request.js';
import type { Gateway } from '../../pipeline/gateway.js';
import { readClientHints } from '../client-hints.js';
import { readJsonRequest } from '../read-body.js';
import { sendError, sendJson } from '../../pipeline/send.js';
import { TranslatingResponse } from '../translating-response.js';
import { handleChat, type ChatRequestContext } from './chat-route.js';

/** How many stored responses a `previous_response_id` chain may walk back (a guard against a cycle). */
const maxChainLength = 10_000;

/**
 * The OpenAI Responses API. The request goes down the same path as chat completions, as an `openai-responses`
 * turn: tool routing, model routing, failover, the cache and the ledger treat it as any request. A provider that
 * speaks the Responses API itself (OpenAI) gets the body unchanged (hosted tools, `include`, encrypted reasoning,
 * its own stored conversations); every other provider gets a translation, and its answer comes back as a
 * response object or the Responses event stream. The response is stored (unless `store: false`) for
 * `previous_response_id` and `GET`, with the provider that served it.
 */
export async function handleCreateResponse(gateway: Gateway, request: IncomingMessage, response: ServerResponse, context: ChatRequestContext): Promise<void> {
  const clientKeyId = clientKeyIdOf(request);
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(gateway, request, clientKeyId);
  } catch (caught) {
    sendError(response, toGatewayError(caught), 'openai-responses', { 'x-hermes-router-request-id': context.requestId });
    return;
  }
  const { parsed, length, continuation } = prepared;
  const recorder = new ResponsesAnswerRecorder();
  const recording: TranslatingResponse = new TranslatingResponse(response, recorder, async () => {
    const final = recorder.response;
    const id = final?.['id'];
    if (!parsed.store || final === undefined || typeof id !== 'string' || final['status'] === 'failed') return;
    const stored: StoredResponse = { response: final, inputItems: withIds(parsed.inputItems) };
    if (parsed.previousResponseId !== undefined) stored.previousResponseId = parsed.previousResponseId;
    if (clientKeyId !== undefined) stored.clientKeyId = clientKeyId;
    const servedBy = recording.sentHeader('x-hermes-router-provider');
    if (servedBy !== undefined) stored.servedBy = servedBy;
    await gateway.responses.set(id, stored, gateway.config.responses.ttl_ms);
  });
  // A session header wins; else Codex's `prompt_cache_key` (its thread id).
  const hints: ClientHints = {};
  const cacheKey = parsed.body['prompt_cache_key'];
  if (readClientHints(request.headers).sessionId === undefined && typeof cacheKey === 'string' && cacheKey.length > 0) hints.sessionId = cacheKey.slice(0, 200);
  await handleChat(gateway, 'openai-responses', request, recording, context, { body: parsed.body, length, hints, ...(continuation === undefined ? {} : { continuation }) });
  await recording.settled();
}

async function prepare(gateway: Gateway, request: IncomingMessage, clientKeyId: string | undefined) {
  const { body, length } = await readJsonRequest(request, gateway.config.server.body_limit_bytes);
  const parsed = readResponsesRequest(body);
  const continuation = parsed.previousResponseId === undefined ? undefined : await conversationBefore(gateway, parsed.previousResponseId, clientKeyId);
  return { parsed, length, continuation };
}

/** The conversation up to and including the response `id`: its chain's inputs and outputs, oldest first, and who served it. */
async function conversationBefore(gateway: Gateway, id: string, clientKeyId: string | undefined): Promise<Continuation> {
  const turns: StoredResponse[] = [];
  let next: string | undefined = id;
  while (next !== undefined && turns.length < maxChainLength) {
    const stored = await readOwn(gateway, next, clientKeyId);
    if (stored === undefined) {
      throw new GatewayError('invalid_request', `Previous response with id '${next}' not found.`, { status: 404 });
    }
    turns.unshift(stored);
    next = stored.previousResponseId;
  }
  const items = turns.flatMap((turn) => [...turn.inputItems, ...outputItems(turn.response)]);
  const servedBy = turns.at(-1)?.servedBy;
  return { responseId: id, items, ...(servedBy === undefined ? {} : { servedBy }) };
}

function outputItems(response: JsonObject): JsonObject[] {
  return Array.isArray(response['output']) ? response['output'].filter(isJsonObject) : [];
}

/** A stored response, if it exists and belongs to the same application key (or both have none). */
async function readOwn(gateway: Gateway, id: string, clientKeyId: string | undefined): Promise<StoredResponse | undefined> {
  const stored = await gateway.responses.get(id);
  return stored !== undefined && stored.clientKeyId === clientKeyId ? stored : undefined;
}

function withIds(items: readonly JsonObject[]): JsonObject[] {
  return items.map((item) => (typeof item['id'] === 'string' ? item : { id: responsesId('msg'), ...item }));
}

function notFound(id: string): GatewayError {
  return new GatewayError('not_found', `No response found with id '${id}'.`);
}

const responsePath = /^\/v1\/responses\/([A-Za-z0-9_-]+)(\/input_items)?$/;

/** `GET`/`DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`; false when the path is not one of them. */
export async function handleStoredResponseRoutes(gateway: Gateway, request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const match = responsePath.exec(path);
  if (!match) return false;
  const id = match[1] ?? '';
  const method = request.method ?? 'GET';
  const clientKeyId = clientKeyIdOf(request);
  request.resume();
  try {
    const stored = await readOwn(gateway, id, clientKeyId);
    if (match[2] !== undefined) {
      if (method !== 'GET') throw new GatewayError('invalid_request', `Use GET for ${path}.`, { status: 405 });
      if (stored === undefined) throw notFound(id);
      const items = query.get('order') === 'asc' ? stored.inputItems : [...stored.inputItems].reverse();
      sendJson(response, 200, { object: 'list', data: items, first_id: items[0]?.['id'] ?? null, last_id: items.at(-1)?.['id'] ?? null, has_more: false });
      return true;
    }
    if (method === 'GET') {
      if (stored === undefined) throw notFound(id);
      sendJson(response, 200, stored.response);
    } else if (method === 'DELETE') {
      if (stored === undefined || !(await gateway.responses.delete(id))) throw notFound(id);
      sendJson(response, 200, { id, object: 'response', deleted: true });
    } else {
      throw new GatewayError('invalid_request', `Use GET or DELETE for ${path}.`, { status: 405 });
    }
  } catch (caught) {
    sendError(response, toGatewayError(caught), 'openai-responses', { 'x-hermes-router-request-id': `hr_${randomUUID()}` });
  }
  return true;
}
