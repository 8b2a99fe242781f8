import type { ClientResponse } from './client-response.js';
import type { ApiFormat } from '../core/api-format.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { type AttemptRecord, type RequestRecord, startRequestRecord } from '../core/ledger-record.js';
import type { PriceCapDecision, PromptCacheDecision, RouteDecision, ToolRoutingDecision } from '../core/route-decision.js';
import { priceCapMessage } from '../models/price-cap.js';
import type { ClientHints, Continuation, Turn } from '../core/turn.js';
import type { JsonObject } from '../core/json.js';
import type { Deployment } from '../catalog/deployment.js';
import type { DispatchSuccess } from '../dispatch/attempt-loop.js';
import type { Provider } from '../providers/provider.js';
import { prepareUpstreamBody } from '../dispatch/prepare-body.js';
import { cachesPerKey, optimizePromptCache } from '../prompt-cache/optimize.js';
import { cacheAnswered, ttlForTurn, warmKey } from '../prompt-cache/cache-session-state.js';
import type { SessionRecord } from '../store/session-record.js';
import type { PreparedBodyFacts } from '../dispatch/prepare-body.js';
import { routeLabel } from '../models/candidate.js';
import type { Candidate } from '../models/candidate.js';
import { expandSessionSurface, requestToolsetName, routeTools } from '../tools/gateway-stage.js';
import type { ToolStageResult } from '../tools/gateway-stage.js';
import { parseRequestToolsetCall, requestToolsetResultText } from '../tools/recovery.js';
import { resolveSessionIdentity } from '../session/session-identity.js';
import { stripSkipPrefix } from '../models/topic/skip-prefix.js';
import { addNoteToSystemPrompt } from '../insight/context-nudge.js';
import { personaAttempts } from '../models/topic/persona-attempts.js';
import type { MessageLike } from '../models/topic/skip-prefix.js';
import { wireFormat } from '../wire/formats.js';
import { type TranslationContext, upstreamFormat } from '../wire/translate/translation.js';
import type { Gateway } from './gateway.js';
import { sendError, sendJson } from './send.js';
import { SseWriter } from './sse-writer.js';
import { cacheIneligibility, cacheKey } from '../cache/response-cache.js';
import { priceUsage } from '../catalog/prices/price-usage.js';
import { clientKeyIdOfPrincipal } from '../security/principal.js';
import type { Principal } from '../security/principal.js';
import { restrictCandidatesFor } from '../security/restrict-candidates.js';
import { budgetSubjectOf, budgetWarningHeader } from './budget-subject.js';
import { routingSignature } from '../interceptors/signature/routing-signature.js';
import { respond } from './respond.js';
import { agentName } from '../tools/agent-name.js';
import { firstPromptLabel, titleLabel } from './session-labels.js';
import type { Recovery } from './respond.js';

export interface ChatRequestContext {
  requestId: string;
  /** Wall-clock time the request arrived (stored in the ledger). */
  receivedAt: number;
  /** performance.now() at arrival, for durations. */
  monotonicStart: number;
  endpoint: string;
}

/**
 * One client request as the pipeline takes it. The HTTP layer builds it from the request
 * (`server/routes/chat-route.ts`); any other caller (an eval, a warm-up) can build one without a socket.
 */
export interface TurnRequest {
  format: ApiFormat;
  context: ChatRequestContext;
  /** Reads and parses the body. Called inside the pipeline, so its errors are answered and recorded like any other. */
  readBody(): Promise<{ body: JsonObject; length: number }>;
  /** Routing hints from outside the body (headers, an inbound adapter's own fields). */
  hints: ClientHints;
  /** Who sent it, as the auth step decided; undefined when no auth step ran. */
  principal: Principal | undefined;
  /** Client headers that go upstream (`anthropic-beta`, …) and the query string, if any. */
  forwardHeaders: Record<string, string>;
  forwardQuery?: string;
  /** The stored conversation the request continues, which the server loaded (Responses `previous_response_id`). */
  continuation?: Continuation;
}

interface Tracking {
  record: RequestRecord;
  turn?: Turn;
  responseText: string;
  /** The tool stage's ledger figures, counted after the answer (see ToolStageResult.countSchemaTokens). */
  countSchemaTokens?: () => Promise<void> | undefined;
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
export async function handleTurn(gateway: Gateway, request: TurnRequest, response: ClientResponse): Promise<void> {
  const { format, context } = request;
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const record = startRequestRecord({ requestId: context.requestId, startedAt: context.receivedAt, inboundFormat: format, endpoint: context.endpoint, requestedModel: '' });
  const decision: RouteDecision = record.decision;
  const tracking: Tracking = { record, responseText: '' };
  // Set by the server's auth step: the application key's id (never the key), `admin`, or nothing.
  const clientKeyId = clientKeyIdOfPrincipal(request.principal);
  if (clientKeyId !== undefined) tracking.record.clientKeyId = clientKeyId;
  // The session's record, opened once after the cache lookups and released (saved) once when the request ends.
  let openedSession: string | undefined;
  gateway.inFlight.enter();
  for (const observer of gateway.observers) observer.requestStarted();
  try {
    const { body, length } = await request.readBody();
    const turn = wireFormat(format).decode(body, {
      requestId: context.requestId,
      receivedAt: context.receivedAt,
      hints: request.hints,
      bodyLength: length,
      ...(request.continuation === undefined ? {} : { continuation: request.continuation }),
    });
    // The body as the client sent it (stages replace top-level members, never edit them): a translated
    // answer echoes the client's settings, not the routed ones.
    const translation: TranslationContext = {
      clientBody: { ...turn.body },
      requestId: turn.requestId,
      receivedAt: turn.receivedAt,
      model: turn.requestedModel,
      ...(turn.continuation === undefined ? {} : { continuation: turn.continuation }),
    };
    tracking.turn = turn;
    if (clientKeyId !== undefined) turn.clientKeyId = clientKeyId;
    tracking.record.requestedModel = turn.requestedModel;
    tracking.record.streaming = turn.stream;
    // `/sd`, `!sd`, `@@skipdetect`… skip topic routing for this turn; the prefix never goes upstream.
    const skip = stripSkipPrefix(Array.isArray(turn.body.messages) ? (turn.body.messages as MessageLike[]) : []);
    if (skip.skipped) {
      turn.body.messages = skip.messages;
      turn.topicSkipped = true;
    }
    // A fingerprinted request may be an agent's side request (a title) about a session seen here: count it there.
    const resolved = resolveSessionIdentity(turn);
    const session = resolved.source === 'fingerprint' ? (gateway.sideRequests.attach(turn) ?? resolved) : resolved;
    if (session === resolved && resolved.source === 'fingerprint') gateway.sideRequests.remember(turn, resolved.id);
    const sideRequest = session !== resolved;
    const labels = gateway.config.ledger.session_labels;
    decision.session = { ...session };
    if (labels && !sideRequest) {
      const agent = agentName(turn);
      if (agent !== undefined) decision.session.agent = redactSecrets(agent);
      const firstPrompt = firstPromptLabel(turn);
      if (firstPrompt !== undefined) decision.session.firstPrompt = firstPrompt;
    }
    tracking.record.sessionId = session.id;
    const cacheable = cacheIneligibility(turn, gateway.responseCache.config) === undefined;
    const key = cacheable ? cacheKey(turn, turn.body.tools) : undefined;
    if (key !== undefined && (await serveFromCache(gateway, turn, key, response, tracking, context))) return;
    // Exact first; then (when on) a paraphrase of an earlier request, which costs one bounded embeddings call.
    const similar = key !== undefined ? await gateway.semanticCache.probe(turn, session.id, controller.signal) : undefined;
    for (const match of similar?.matches ?? []) {
      if (await serveFromCache(gateway, turn, match.answerKey, response, tracking, context, match.similarity)) return;
    }
    const sessionRecord = await gateway.sessions.open(session.id);
    openedSession = session.id;
    const tools = await routeTools(turn, sessionRecord, gateway.config.tool_routing, gateway.toolRoutingMode, gateway.env).catch(
      (error: unknown) => {
        // Fail open: a routing failure sends the client's own tools.
        gateway.logger.error({ err: error, requestId: context.requestId }, 'tool routing failed; sending the full surface');
        return undefined;
      },
    );
    if (tools) decision.tools = tools.decision;
    if (tools?.countSchemaTokens) tracking.countSchemaTokens = tools.countSchemaTokens;
    // A new or grown surface is stored before the upstream call: the session's next request may reach another
    // instance before this one has finished, and must rebuild these bytes rather than decide afresh.
    gateway.sessions.checkpoint(session.id);
    const nudge = gateway.contextNudge.enabledFor(turn.clientKeyId) ? gateway.contextNudge.decide(session.id, turn.clientKeyId) : undefined;
    if (nudge) {
      addNoteToSystemPrompt(turn, nudge.note);
      decision.nudge = { level: nudge.level, fill: nudge.fill };
    }
    const { candidates: routed, decision: modelDecision, persona } = gateway.modelRouter.route(turn, session.id);
    // The topic's persona goes into the system prompt of the attempts on the topic's own chain only.
    const attemptTurn = personaAttempts(turn, persona, modelDecision);
    // A key limited to some providers or models only ever reaches those.
    // A model the client named must itself be allowed (403 otherwise), not quietly replaced by its fallback.
    const named = gateway.modelRouter.isAutomatic(turn.requestedModel) ? [] : gateway.catalog.resolve(turn.requestedModel);
    const allowed = restrictCandidatesFor(request.principal, routed, turn.requestedModel, named);
    decision.models = modelDecision;
    // Budgets: candidates whose model or provider budget is spent drop out; a spent gateway, session or key
    // budget refuses with 429. An estimate is held until the request finishes.
    const budget = await gateway.budgets.admit(turn.requestId, budgetSubjectOf(request.principal, session.id), allowed, {
      inputTokens: turn.estimatedInputTokens,
      outputTokens: gateway.budgets.outputEstimate(turn.body.max_tokens ?? turn.body.max_completion_tokens),
    });
    const candidates = budget.candidates;
    const facts: PreparedBodyFacts = { addedUsageChunk: false };
    // Provider prompt caches: hints on each attempt's body, the TTL from the session's pace, its warm key first.
    const cacheConfig = gateway.config.prompt_cache;
    const cacheSession = cacheConfig.enabled ? { id: session.id, ttl: ttlForTurn(sessionRecord, cacheConfig) } : undefined;
    const warmKeys = new Map<string, string | undefined>();
    const plan = {
      stream: turn.stream,
      signal: controller.signal,
      forwardHeaders: request.forwardHeaders,
      ...(request.forwardQuery !== undefined ? { forwardQuery: request.forwardQuery } : {}),
      attempts: tracking.record.attempts,
      isEnabled: (deployment: Deployment) => gateway.switches.isEnabled(deployment),
      formatFor: (provider: Provider) => upstreamFormat(turn.format, provider),
      prepare: (deployment: Deployment, provider: Provider, format: ApiFormat) => {
        const prepared = prepareUpstreamBody(attemptTurn(deployment), translation, format, deployment, provider, gateway.dialectFor(deployment.providerId), facts);
        const target = { format, providerKind: deployment.providerKind, upstreamModel: deployment.upstreamModel };
        const optimized = optimizePromptCache(prepared, turn.body, target, cacheSession, cacheConfig);
        decision.promptCache = optimized.decision;
        return optimized.body;
      },
      preferredKey: (deployment: Deployment) => {
        if (!warmKeys.has(deployment.providerId)) {
          const format = gateway.providers.get(deployment.providerId)?.format;
          const caches = format !== undefined && cachesPerKey({ format, providerKind: deployment.providerKind, upstreamModel: deployment.upstreamModel });
          warmKeys.set(deployment.providerId, cacheSession && caches ? warmKey(sessionRecord, deployment.providerId, cacheConfig) : undefined);
        }
        return warmKeys.get(deployment.providerId);
      },
    };
    const success = await gateway.attemptLoop.run({ ...plan, candidates }).catch((caught: unknown) => {
      throw withPriceCapReason(caught, decision.models?.priceCap);
    });
    const route = routeLabel(candidates, success.deployment);
    gateway.modelRouter.succeeded(session.id, success.deployment, success.attempt.durationMs);
    if (cacheSession) {
      const warm = warmKeys.get(success.deployment.providerId);
      if (decision.promptCache && warm !== undefined) decision.promptCache.keyAffinity = warm === success.key.id;
      const target = { format: success.format, providerKind: success.deployment.providerKind, upstreamModel: success.deployment.upstreamModel };
      if (cachesPerKey(target)) cacheAnswered(sessionRecord, success.deployment.providerId, success.key.id);
    }
    // What the answer taught the session (affinity, the key holding its prompt cache, topic inertia) is stored as
    // the answer starts, not after it ends: the agent's next request may reach another instance at once.
    gateway.sessions.checkpoint(session.id);
    tracking.record.servedProvider = success.deployment.providerId;
    tracking.record.servedModel = success.deployment.modelId;
    const recovery =
      tools?.narrowed && decision.tools
        ? toolsetRecovery(gateway, turn, session.id, sessionRecord, tools, decision.tools, () =>
            gateway.attemptLoop.run({ ...plan, candidates: servedFirst(candidates, tracking.record.servedProvider, tracking.record.servedModel) }),
          )
        : undefined;
    await respond({
      turn,
      translation,
      first: success,
      response,
      record: tracking.record,
      signal: controller.signal,
      facts,
      route,
      monotonicStart: context.monotonicStart,
      ...(recovery ? { recovery } : {}),
      headers: (served) => ({
        ...routingHeaders(turn.requestId, Math.max(0, performance.now() - context.monotonicStart - upstreamTime(tracking.record.attempts)), served, route),
        // Clients send it back in If-Match to learn (409) that the switches changed under them.
        'x-hermes-router-policy-revision': String(gateway.switches.revision),
        ...budgetWarningHeader(budget.warnings),
        ...promptCacheHeader(decision.promptCache),
      }),
      onText: (text) => {
        tracking.responseText = text;
      },
      ...(key !== undefined
        ? {
            cacheLimitBytes: gateway.responseCache.config.max_bytes,
            onCacheable: (answer: { kind: 'json'; body: unknown } | { kind: 'stream'; frames: string[] }) => {
              const served = tracking.record;
              if (served.servedProvider === undefined || served.servedModel === undefined) return;
              gateway.responseCache.remember(key, {
                ...answer,
                format: turn.format,
                provider: served.servedProvider,
                model: served.servedModel,
                ...(served.usage ? { usage: served.usage } : {}),
                storedAt: Date.now(),
              });
              decision.cache = { hit: false, stored: true };
              similar?.remember(key);
            },
          }
        : {}),
      ...(gateway.config.routing.signature.enabled || gateway.config.topic_routing.signature.enabled
        ? { signature: (served: DispatchSuccess) => routingSignature(decision.models, served.deployment.modelId) }
        : {}),
    });
    // The side request attached to a session generated its title: its answer, short and redacted, labels it.
    if (labels && sideRequest && tracking.record.status === 200 && decision.session) {
      const title = titleLabel(tracking.responseText);
      if (title !== undefined) decision.session.title = title;
    }
  } catch (caught) {
    const error = toGatewayError(caught);
    if (error.errorClass === 'internal') gateway.logger.error({ err: caught, requestId: context.requestId }, 'request failed inside the gateway');
    tracking.record.status = error.errorClass === 'client_closed' ? 499 : error.status;
    tracking.record.errorClass = error.errorClass;
    const elapsed = performance.now() - context.monotonicStart;
    const overheadMs = Math.max(0, elapsed - upstreamTime(tracking.record.attempts));
    if (error.errorClass !== 'client_closed') {
      sendError(response, error, format, { ...routingHeaders(context.requestId, overheadMs), 'x-hermes-router-policy-revision': String(gateway.switches.revision) });
    }
  } finally {
    stopClock(tracking, context);
    // The schema counts go into the record before the observers see it; while the first count of a tools array
    // loads the tokenizer and runs, other requests are served (it yields), this one has already been answered.
    const counting = tracking.countSchemaTokens?.();
    if (counting) await counting;
    finishRecord(gateway, tracking);
    // After the observers: the context nudge notes the session's prompt size in the record before it is saved.
    if (openedSession !== undefined) await gateway.sessions.release(openedSession);
    gateway.inFlight.leave();
  }
}

/**
 * Answers from the response cache when an entry exists for this exact request and the model that produced it is
 * still configured and switched on (a cached answer never bypasses a switch). The ledger row costs nothing and
 * records what the original answer would cost now.
 */
async function serveFromCache(
  gateway: Gateway,
  turn: Turn,
  key: string,
  response: ClientResponse,
  tracking: Tracking,
  context: ChatRequestContext,
  similarity?: number,
): Promise<boolean> {
  const hit = await gateway.responseCache.lookup(key);
  if (!hit || hit.format !== turn.format || (hit.kind === 'stream') !== turn.stream) return false;
  const deployment = gateway.catalog.find(hit.provider, hit.model);
  if (!deployment || !gateway.switches.isEnabled(deployment)) return false;
  const record = tracking.record;
  record.servedProvider = hit.provider;
  record.servedModel = hit.model;
  record.status = 200;
  record.costUsd = 0;
  record.decision.cache = {
    hit: true,
    ...(similarity === undefined ? { kind: 'exact' as const } : { kind: 'semantic' as const, similarity }),
    savedCostUsd: priceUsage(hit.provider, deployment.upstreamModel, hit.usage, gateway.pricing).costUsd,
  };
  const headers = {
    ...routingHeaders(turn.requestId, performance.now() - context.monotonicStart, undefined, 'cache'),
    'x-hermes-router-model': deployment.qualifiedName,
    'x-hermes-router-cache': similarity === undefined ? 'hit' : 'semantic-hit',
  };
  record.timeToFirstByteMs = performance.now() - context.monotonicStart;
  // A replayed answer is a new answer: the parts clients tell answers apart by (a Responses id) are renewed.
  const wire = wireFormat(turn.format);
  if (hit.kind === 'stream' && hit.frames) {
    const writer = new SseWriter(response, turn.format);
    writer.start(200, headers);
    writer.writeFrames([wire.renewAnswer(hit.frames.join(''), turn.requestId)]);
    writer.end();
  } else {
    sendJson(response, 200, JSON.parse(wire.renewAnswer(JSON.stringify(hit.body), turn.requestId)) as unknown, headers);
  }
  return true;
}

/**
 * When the candidates failed and `max_price` had dropped fallbacks, the error says so: the client learns that a
 * dearer model was there and deliberately not used. Errors that go back unchanged (an upstream 4xx) stay as they are.
 */
function withPriceCapReason(caught: unknown, priceCap: PriceCapDecision | undefined): unknown {
  if (priceCap === undefined || priceCap.refused.length === 0 || !(caught instanceof GatewayError)) return caught;
  if (!caught.retryable && caught.errorClass !== 'unavailable') return caught;
  return new GatewayError(caught.errorClass, `${caught.message} ${priceCapMessage(priceCap)}`, {
    status: caught.status,
    ...(caught.retryAfterMs === undefined ? {} : { retryAfterMs: caught.retryAfterMs }),
    cause: caught,
  });
}

/** What the prompt-cache optimizer did, e.g. `breakpoints=tools,system,latest_user; ttl=1h`. */
function promptCacheHeader(promptCache: PromptCacheDecision | undefined): Record<string, string> {
  if (!promptCache || promptCache.applied === 'off') return {};
  const parts = [promptCache.breakpoints ? `breakpoints=${promptCache.breakpoints.join(',')}` : promptCache.applied];
  if (promptCache.ttl) parts.push(`ttl=${promptCache.ttl}`);
  return { 'x-hermes-router-prompt-cache': parts.join('; ') };
}

/** The deployment that just answered goes first on a re-issue, so its prompt cache stays warm. */
function servedFirst(candidates: Candidate[], provider: string | undefined, model: string | undefined): Candidate[] {
  const index = candidates.findIndex((candidate) => candidate.deployment.providerId === provider && candidate.deployment.modelId === model);
  if (index <= 0) return candidates;
  return [candidates[index] as Candidate, ...candidates.slice(0, index), ...candidates.slice(index + 1)];
}

/** The request_toolset recovery loop's hooks, bound to this request's session and narrowed surface. */
function toolsetRecovery(
  gateway: Gateway,
  turn: Turn,
  sessionId: string,
  sessionRecord: SessionRecord,
  tools: ToolStageResult,
  decision: ToolRoutingDecision,
  reissue: Recovery['reissue'],
): Recovery | undefined {
  const narrowed = tools.narrowed;
  if (!narrowed) return undefined;
  const registry = narrowed.context.registry;
  const config = gateway.config.tool_routing;
  // A surface grown by request_toolset is stored at once, like the first one: the agent's next request, after this
  // answer, must find it whichever instance serves it.
  const grow = (added: string[]): void => {
    if (added.length === 0) return;
    expandSessionSurface(turn, config, narrowed, sessionRecord, added);
    gateway.sessions.checkpoint(sessionId);
  };
  return {
    toolName: requestToolsetName,
    maxReissues: 2,
    async serve(calls, text, thinking) {
      const parsed = calls.map((call) => parseRequestToolsetCall(call.argumentsText, registry));
      grow(parsed.flatMap((result) => result.valid));
      const results = parsed.map((result) => requestToolsetResultText(result, registry));
      wireFormat(turn.format).appendToolRoundTrip(turn.body, { toolName: requestToolsetName, calls, results, text, thinking });
    },
    async remember(calls) {
      grow(calls.flatMap((call) => parseRequestToolsetCall(call.argumentsText, registry).valid));
    },
    reissue,
    recorded(reissues) {
      decision.recoveries = reissues;
    },
    recordedOverhead(tokens) {
      decision.recoveryOverheadTokens = tokens;
    },
  };
}

function stopClock(tracking: Tracking, context: ChatRequestContext): void {
  const record = tracking.record;
  record.totalMs = performance.now() - context.monotonicStart;
  record.overheadMs = Math.max(0, record.totalMs - upstreamTime(record.attempts));
}

function finishRecord(gateway: Gateway, tracking: Tracking): void {
  const record = tracking.record;
  // A cache hit called no provider: there is no usage to estimate and nothing to bill. A client that went away
  // after the upstream began answering (499) is estimated like a cut stream: the provider bills what it produced.
  const answered = record.status === 200 || (record.status === 499 && record.errorClass === 'client_closed');
  const needsEstimate = record.usage === undefined && record.servedModel !== undefined && answered && !record.decision.cache?.hit;
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
