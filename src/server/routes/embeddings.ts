import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { AttemptRecord } from '../../core/ledger-record.js';
import { AttemptLoop } from '../../dispatch/attempt-loop.js';
import { routeLabel } from '../../models/candidate.js';
import { embeddingCandidates } from '../../models/embeddings/embedding-candidates.js';
import { EmbeddingsProvider } from '../../models/embeddings/embeddings-provider.js';
import { providerKinds } from '../../providers/kinds.js';
import type { ProviderKindInfo } from '../../providers/kinds.js';
import type { Provider } from '../../providers/provider.js';
import type { Gateway } from '../gateway.js';
import { readJsonBody } from '../read-body.js';
import { sendError, sendJson } from '../send.js';

interface EmbeddingsDispatch {
  loop: AttemptLoop;
  providers: Map<string, Provider>;
}

const dispatchByGateway = new WeakMap<Gateway, EmbeddingsDispatch>();

/** One attempt loop per gateway for embeddings, sharing the chat loop's keys, cooldowns and breakers. */
function embeddingsDispatch(gateway: Gateway): EmbeddingsDispatch {
  const existing = dispatchByGateway.get(gateway);
  if (existing) return existing;
  const providers = new Map<string, Provider>();
  for (const provider of gateway.config.providers) {
    const kind: ProviderKindInfo = providerKinds[provider.kind];
    const baseUrl = provider.base_url ?? kind.defaultBaseUrl;
    if (!provider.enabled || kind.format !== 'openai-chat' || baseUrl === undefined) continue;
    providers.set(provider.id, new EmbeddingsProvider(provider.id, baseUrl, provider.headers, gateway.timeoutsFor(provider.id).connectMs));
  }
  const resilience = gateway.config.resilience;
  const loop = new AttemptLoop({
    providers,
    keyPools: gateway.keyPools,
    timeoutsFor: (providerId) => gateway.timeoutsFor(providerId),
    breakers: gateway.breakers,
    cooldowns: gateway.cooldowns,
    settings: { maxAttempts: resilience.max_attempts, retryAfterCapMs: resilience.retry_after_cap_ms, cooldownMs: resilience.cooldown_ms },
  });
  const dispatch = { loop, providers };
  dispatchByGateway.set(gateway, dispatch);
  gateway.onClose(() => Promise.allSettled([...providers.values()].map((provider) => provider.close())).then(() => undefined));
  return dispatch;
}

/** `POST /v1/embeddings`: only embeddings models, stable order, the chat path's failover and switches. */
export async function handleEmbeddings(gateway: Gateway, request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const attempts: AttemptRecord[] = [];
  try {
    const body = await readJsonBody(request, gateway.config.server.body_limit_bytes);
    if (body.input === undefined) throw new GatewayError('invalid_request', 'An embeddings request needs `input` (a string or an array).');
    const requestedModel = typeof body.model === 'string' ? body.model : undefined;
    const dispatch = embeddingsDispatch(gateway);
    const candidates = embeddingCandidates(
      gateway.catalog,
      requestedModel,
      (deployment) => gateway.switches.isEnabled(deployment),
      (deployment) => dispatch.providers.has(deployment.providerId),
    );
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
    sendJson(response, 200, success.response.body, {
      'x-hermes-router-request-id': requestId,
      'x-hermes-router-model': success.deployment.qualifiedName,
      'x-hermes-router-provider': success.deployment.providerId,
      'x-hermes-router-route': route,
    });
  } catch (caught) {
    const error = toGatewayError(caught);
    if (error.errorClass === 'internal') gateway.logger.error({ err: caught, requestId }, 'embeddings request failed inside the gateway');
    if (error.errorClass !== 'client_closed') sendError(response, error, 'openai-chat', { 'x-hermes-router-request-id': requestId });
  }
}
