import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiFormat } from '../../core/api-format.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { AttemptRecord, RequestRecord } from '../../core/ledger-record.js';
import type { RouteDecision } from '../../core/route-decision.js';
import type { Turn } from '../../core/turn.js';
import type { Usage } from '../../core/usage.js';
import type { DispatchSuccess } from '../../dispatch/attempt-loop.js';
import { clientAskedForUsage, prepareUpstreamBody } from '../../dispatch/prepare-body.js';
import type { PreparedBodyFacts } from '../../dispatch/prepare-body.js';
import { relayJson } from '../../interceptors/relay-json.js';
import { relayStream } from '../../interceptors/relay-stream.js';
import { resolveSessionIdentity } from '../../session/session-identity.js';
import { decodeAnthropicMessagesRequest } from '../../wire/anthropic-messages/decode.js';
import { decodeOpenAiChatRequest } from '../../wire/openai-chat/decode.js';
import { forwardableHeaders, readClientHints } from '../client-hints.js';
import type { Gateway } from '../gateway.js';
import { readJsonRequest } from '../read-body.js';
import { sendError, sendJson } from '../send.js';
import { SseWriter } from '../sse-writer.js';

const decoders = {
  'openai-chat': decodeOpenAiChatRequest,
  'anthropic-messages': decodeAnthropicMessagesRequest,
} as const satisfies Record<ApiFormat, unknown>;

export interface ChatRequestContext {
  requestId: string;
  /** Wall-clock time the request arrived (stored in the ledger). */
  receivedAt: number;
  /** performance.now() at arrival, for durations. */
  monotonicStart: number;
  endpoint: string;
}

interface Tracking {
  record: RequestRecord;
  turn?: Turn;
  upstreamMs: number;
  responseText: string;
}

function upstreamTime(attempts: AttemptRecord[]): number {
  return attempts.reduce((total, attempt) => total + attempt.durationMs, 0);
}

function routingHeaders(requestId: string, overheadMs: number, success?: DispatchSuccess, route?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-hermes-router-request-id': requestId,
    'x-hermes-router-overhead-ms': overheadMs.toFixed(2),
  };
  if (success) {
    headers['x-hermes-router-model'] = success.deployment.qualifiedName;
    headers['x-hermes-router-provider'] = success.deployment.providerId;
  }
  if (route) headers['x-hermes-router-route'] = route;
  return headers;
}

/**
 * One chat request in either format: decode → session → (tool routing) → candidates → attempt loop → relay →
 * ledger. Every failure is answered in the client's format; after the first byte a failure becomes an error
 * event instead.
 */
export async function handleChat(
  gateway: Gateway,
  format: ApiFormat,
  request: IncomingMessage,
  response: ServerResponse,
  context: ChatRequestContext,
): Promise<void> {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const decision: RouteDecision = {};
  const tracking: Tracking = {
    record: {
      requestId: context.requestId,
      startedAt: context.receivedAt,
      inboundFormat: format,
      endpoint: context.endpoint,
      requestedModel: '',
      status: 0,
      streaming: false,
      totalMs: 0,
      overheadMs: 0,
      usageEstimated: false,
      costUsd: null,
      decision,
      attempts: [],
    },
    upstreamMs: 0,
    responseText: '',
  };
  for (const observer of gateway.observers) observer.requestStarted();
  try {
    const { body, length } = await readJsonRequest(request, gateway.config.server.body_limit_bytes);
    const turn = decoders[format](body, {
      requestId: context.requestId,
      receivedAt: context.receivedAt,
      hints: readClientHints(request.headers),
      bodyLength: length,
    });
    tracking.turn = turn;
    tracking.record.requestedModel = turn.requestedModel;
    tracking.record.streaming = turn.stream;
    const session = resolveSessionIdentity(turn);
    decision.session = session;
    tracking.record.sessionId = session.id;
    const { candidates, decision: modelDecision } = gateway.modelRouter.route(turn, session.id);
    decision.models = modelDecision;
    const facts: PreparedBodyFacts = { addedUsageChunk: false };
    const success = await gateway.attemptLoop.run({
      candidates,
      stream: turn.stream,
      signal: controller.signal,
      forwardHeaders: forwardableHeaders(request.headers),
      attempts: tracking.record.attempts,
      isEnabled: (deployment) => gateway.switches.isEnabled(deployment),
      prepare: (deployment, provider) =>
        prepareUpstreamBody(turn, deployment, provider, gateway.dialectFor(deployment.providerId), facts),
    });
    const route = candidates.find((candidate) => candidate.deployment === success.deployment)?.source ?? 'explicit';
    gateway.modelRouter.succeeded(session.id, success.deployment, success.attempt.durationMs);
    tracking.record.servedProvider = success.deployment.providerId;
    tracking.record.servedModel = success.deployment.modelId;
    await respond(turn, success, response, tracking, controller.signal, facts, route, context.monotonicStart);
  } catch (caught) {
    const error = toGatewayError(caught);
    if (error.errorClass === 'internal') gateway.logger.error({ err: caught, requestId: context.requestId }, 'request failed inside the gateway');
    tracking.record.status = error.errorClass === 'client_closed' ? 499 : error.status;
    tracking.record.errorClass = error.errorClass;
    const elapsed = performance.now() - context.monotonicStart;
    const overheadMs = Math.max(0, elapsed - upstreamTime(tracking.record.attempts));
    if (error.errorClass !== 'client_closed') sendError(response, error, format, routingHeaders(context.requestId, overheadMs));
  } finally {
    finishRecord(gateway, tracking, context);
  }
}

async function respond(
  turn: Turn,
  success: DispatchSuccess,
  response: ServerResponse,
  tracking: Tracking,
  signal: AbortSignal,
  facts: PreparedBodyFacts,
  route: string,
  monotonicStart: number,
): Promise<void> {
  const providerFormat = success.provider.format;
  const overheadSoFar = () => Math.max(0, performance.now() - monotonicStart - upstreamTime(tracking.record.attempts));
  if (success.stream) {
    const writer = new SseWriter(response, turn.format);
    writer.start(200, routingHeaders(turn.requestId, overheadSoFar(), success, route));
    tracking.record.timeToFirstByteMs = performance.now() - monotonicStart;
    const streamStartedAt = Date.now();
    const outcome = await relayStream({
      providerFormat,
      clientFormat: turn.format,
      first: success.stream.first,
      rest: success.stream.rest,
      writer,
      model: success.deployment.modelId,
      hideUsageChunk: facts.addedUsageChunk,
      clientIncludeUsage: clientAskedForUsage(turn.body),
      signal,
    });
    // The upstream time of a stream runs until its last event: the attempt's duration covers it all.
    success.attempt.durationMs += outcome.upstreamEndedAt - streamStartedAt;
    tracking.responseText = outcome.responseText;
    applyUsage(tracking.record, outcome.usage);
    if (outcome.error) {
      tracking.record.status = outcome.error.errorClass === 'client_closed' ? 499 : 200;
      tracking.record.errorClass = outcome.error.errorClass;
      success.attempt.errorClass = outcome.error.errorClass;
      success.attempt.errorMessage = outcome.error.message.slice(0, 500);
    } else {
      tracking.record.status = 200;
    }
    return;
  }
  if (success.response.kind !== 'json') throw new GatewayError('internal', 'expected a JSON response');
  const relayed = relayJson(success.response.body, providerFormat, turn.format, success.deployment.modelId);
  tracking.responseText = relayed.responseText;
  applyUsage(tracking.record, relayed.usage);
  tracking.record.status = 200;
  tracking.record.timeToFirstByteMs = performance.now() - monotonicStart;
  sendJson(response, 200, relayed.body, routingHeaders(turn.requestId, overheadSoFar(), success, route));
}

function applyUsage(record: RequestRecord, usage: Usage | undefined): void {
  if (usage) record.usage = usage;
}

function finishRecord(gateway: Gateway, tracking: Tracking, context: ChatRequestContext): void {
  const record = tracking.record;
  record.totalMs = performance.now() - context.monotonicStart;
  record.overheadMs = Math.max(0, record.totalMs - upstreamTime(record.attempts));
  const needsEstimate = record.usage === undefined && record.servedModel !== undefined && record.status === 200;
  const estimateFrom = needsEstimate
    ? { requestText: tracking.turn?.messages.map((message) => message.text).join('\n') ?? '', responseText: tracking.responseText }
    : undefined;
  for (const observer of gateway.observers) {
    try {
      observer.requestFinished(record, estimateFrom);
    } catch (error) {
      gateway.logger.error({ err: error }, 'a request observer failed');
    }
  }
}
