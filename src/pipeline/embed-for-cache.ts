import type { Deployment } from '../catalog/deployment.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { isJsonObject } from '../core/json.js';
import { startRequestRecord } from '../core/ledger-record.js';
import type { Turn } from '../core/turn.js';
import { embeddingCandidates } from '../models/embeddings/embedding-candidates.js';
import { type EmbeddingsHost, embeddingsDispatch, embeddingUsage } from './embeddings-dispatch.js';
import { reportFinished } from './request-observer.js';

/** The ledger row of a semantic lookup's embeddings call: the chat request's id with this suffix. */
export const embeddingRequestSuffix = ':semantic-embedding';

/** The first vector of an OpenAI embeddings body, float array or base64 little-endian float32. */
function firstVector(body: unknown): number[] | undefined {
  if (!isJsonObject(body) || !Array.isArray(body.data)) return undefined;
  const first: unknown = body.data[0];
  if (!isJsonObject(first)) return undefined;
  const embedding = first.embedding;
  if (Array.isArray(embedding) && embedding.length > 0 && embedding.every((value) => typeof value === 'number')) return embedding;
  if (typeof embedding === 'string' && embedding.length > 0) {
    const bytes = Buffer.from(embedding, 'base64');
    return Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4))));
  }
  return undefined;
}

/**
 * Embeds a chat request's text through the gateway's embeddings path (same failover, keys, breakers and switches
 * as `POST /v1/embeddings`) within `timeoutMs`, and records the call as its own ledger row under the client's key,
 * so what the semantic cache costs shows next to what it saves. Throws on any failure; the caller fails open.
 */
export async function embedForSemanticCache(
  gateway: EmbeddingsHost,
  request: { turn: Turn; sessionId: string | undefined; text: string },
  signal: AbortSignal,
): Promise<number[]> {
  const { turn, text } = request;
  const semantic = gateway.config.cache.semantic;
  const model = semantic.embedding_model ?? '';
  const monotonicStart = performance.now();
  const record = startRequestRecord({
    requestId: `${turn.requestId}${embeddingRequestSuffix}`,
    startedAt: Date.now(),
    inboundFormat: 'openai-chat',
    endpoint: '/v1/embeddings',
    requestedModel: model,
  });
  if (turn.clientKeyId !== undefined) record.clientKeyId = turn.clientKeyId;
  if (request.sessionId !== undefined) record.sessionId = request.sessionId;
  for (const observer of gateway.observers) observer.requestStarted();
  const deadline = AbortSignal.timeout(semantic.timeout_ms);
  try {
    const dispatch = embeddingsDispatch(gateway);
    const isEnabled = (deployment: Deployment) => gateway.switches.isEnabled(deployment);
    const candidates = embeddingCandidates(gateway.catalog, model, isEnabled, (deployment) => dispatch.providers.has(deployment.providerId));
    record.decision.models = {
      policy: 'semantic-cache',
      reason: 'embedding the last user message for a semantic cache lookup',
      candidates: candidates.map((candidate) => ({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId })),
      policyRevision: gateway.switches.revision,
    };
    const success = await dispatch.loop.run({
      candidates,
      stream: false,
      signal: AbortSignal.any([signal, deadline]),
      forwardHeaders: {},
      attempts: record.attempts,
      isEnabled,
      prepare: (deployment) => ({ model: deployment.upstreamModel, input: text, encoding_format: 'float' }),
    });
    if (success.response.kind !== 'json') throw new GatewayError('internal', 'expected a JSON embeddings response');
    record.servedProvider = success.deployment.providerId;
    record.servedModel = success.deployment.modelId;
    record.status = 200;
    const usage = embeddingUsage(success.response.body);
    if (usage) record.usage = usage;
    const vector = firstVector(success.response.body);
    if (!vector) throw new GatewayError('upstream_server_error', 'the embeddings response held no vector');
    return vector;
  } catch (caught) {
    const error = deadline.aborted && !signal.aborted
      ? new GatewayError('timeout', `the semantic cache's embeddings call took longer than ${semantic.timeout_ms} ms`)
      : toGatewayError(caught);
    record.status = error.errorClass === 'client_closed' ? 499 : error.status;
    record.errorClass = error.errorClass;
    throw error;
  } finally {
    reportFinished(gateway.observers, gateway.logger, record, monotonicStart);
  }
}
