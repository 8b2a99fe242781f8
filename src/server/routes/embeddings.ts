import type { IncomingMessage, ServerResponse } from 'node:http';
import { restrictCandidates } from '../../security/restrict-candidates.js';
import { budgetSubjectOf, budgetWarningHeader } from '../../pipeline/budget-subject.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { startRequestRecord } from '../../core/ledger-record.js';
import { embeddingsDispatch, embeddingUsage } from '../../pipeline/embeddings-dispatch.js';
import { reportFinished } from '../../pipeline/request-observer.js';
import { routeLabel } from '../../models/candidate.js';
import { embeddingCandidates } from '../../models/embeddings/embedding-candidates.js';
import { routerAlias } from '../../catalog/model-catalog.js';
import { clientKeyIdOf, principalOf } from '../../security/principal.js';
import type { Gateway } from '../../pipeline/gateway.js';
import { readJsonBody } from '../read-body.js';
import { sendError, sendJson } from '../../pipeline/send.js';

/** `POST /v1/embeddings`: only embeddings models, stable order, the chat path's failover and switches. */
export async function handleEmbeddings(gateway: Gateway, request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const monotonicStart = performance.now();
  const record = startRequestRecord({ requestId, startedAt: Date.now(), inboundFormat: 'openai-chat', endpoint: '/v1/embeddings', requestedModel: '' });
  const attempts = record.attempts;
  // As in chat: the ledger row names the key, and the security observer adds its tokens and cost to the key's day.
  const clientKeyId = clientKeyIdOf(request);
  if (clientKeyId !== undefined) record.clientKeyId = clientKeyId;
  gateway.inFlight.enter();
  for (const observer of gateway.observers) observer.requestStarted();
  try {
    const body = await readJsonBody(request, gateway.config.server.body_limit_bytes);
    if (body.input === undefined) throw new GatewayError('invalid_request', 'An embeddings request needs `input` (a string or an array).');
    const requestedModel = typeof body.model === 'string' ? body.model : undefined;
    record.requestedModel = requestedModel ?? '';
    const dispatch = embeddingsDispatch(gateway);
    // A key limited to some providers or models only ever reaches those, as on the chat route.
    const allowed = restrictCandidates(
      request,
      embeddingCandidates(
        gateway.catalog,
        requestedModel,
        (deployment) => gateway.switches.isEnabled(deployment),
        (deployment) => dispatch.providers.has(deployment.providerId),
      ),
      requestedModel ?? '',
      requestedModel === undefined || requestedModel === routerAlias ? [] : gateway.catalog.resolve(requestedModel),
    );
    // Budgets as on the chat route: about four characters a token, no output.
    const inputCharacters = JSON.stringify(body.input).length;
    const budget = await gateway.budgets.admit(requestId, budgetSubjectOf(principalOf(request), undefined), allowed, { inputTokens: Math.ceil(inputCharacters / 4), outputTokens: 0 });
    const candidates = budget.candidates;
    const success = await dispatch.loop.run({
      candidates,
      stream: false,
      signal: controller.signal,
      forwardHeaders: {},
      attempts,
      isEnabled: (deployment) => gateway.switches.isEnabled(deployment),
      prepare: (deployment) => ({ ...body, model: deployment.upstreamModel }),
    });
    if (success.response.kind !== 'json') throw new GatewayError('internal', 'expected a JSON embeddings response');
    const route = routeLabel(candidates, success.deployment);
    record.decision.models = {
      policy: 'embeddings',
      reason: requestedModel === undefined || candidates[0]?.source === 'default' ? 'every embeddings model, config order' : 'the named embeddings model, then its fallbacks',
      candidates: candidates.map((candidate) => ({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId })),
      policyRevision: gateway.switches.revision,
    };
    record.servedProvider = success.deployment.providerId;
    record.servedModel = success.deployment.modelId;
    record.status = 200;
    record.timeToFirstByteMs = performance.now() - monotonicStart;
    const usage = embeddingUsage(success.response.body);
    if (usage) record.usage = usage;
    sendJson(response, 200, success.response.body, {
      'x-hermes-router-request-id': requestId,
      'x-hermes-router-model': success.deployment.qualifiedName,
      'x-hermes-router-provider': success.deployment.providerId,
      'x-hermes-router-route': route,
      ...budgetWarningHeader(budget.warnings),
    });
  } catch (caught) {
    const error = toGatewayError(caught);
    if (error.errorClass === 'internal') gateway.logger.error({ err: caught, requestId }, 'embeddings request failed inside the gateway');
    record.status = error.errorClass === 'client_closed' ? 499 : error.status;
    record.errorClass = error.errorClass;
    if (error.errorClass !== 'client_closed') sendError(response, error, 'openai-chat', { 'x-hermes-router-request-id': requestId });
  } finally {
    reportFinished(gateway.observers, gateway.logger, record, monotonicStart);
    gateway.inFlight.leave();
  }
}
