import type { Deployment } from '../catalog/deployment.js';
import type { ModelCatalog } from '../catalog/model-catalog.js';
import { routerAlias } from '../catalog/model-catalog.js';
import { GatewayError } from '../core/errors.js';
import type { ModelRoutingDecision, PriceCapDecision } from '../core/route-decision.js';
import { fallbackChain } from '../config/fallbacks.js';
import type { MaxPrice } from '../config/fallbacks.js';
import { capFallbackPrices } from './price-cap.js';
import type { Turn } from '../core/turn.js';
import { MemorySessionAffinity } from './affinity/session-affinity.js';
import type { SessionAffinityStore } from './affinity/session-affinity.js';
import type { Candidate, CandidateSource } from './candidate.js';
import { confirmedCapability, filterByCapability } from './capability-filter.js';
import type { Skipped } from './capability-filter.js';
import type { RoutingConfig, RoutingPolicyName } from '../config/routing.js';
import type { DifficultyEstimator } from './difficulty/difficulty-estimator.js';
import { heuristicDifficulty } from './difficulty/heuristic-difficulty.js';
import { LatencyTracker } from './latency-tracker.js';
import { affinityPolicy } from './policies/affinity.js';
import { cheapestCapablePolicy } from './policies/cheapest-capable.js';
import type { PolicyContext, RoutedPersona, RoutingPolicy } from './policies/routing-policy.js';
import { topicPolicy } from './policies/topic-hook.js';
import type { TopicRouter } from './policies/topic-hook.js';
import { workloadHintPolicy } from './policies/workload-hint.js';

export const noProviderMessage =
  'hermes-router has no provider configured. Add one to hermes-router.yaml (or ~/.hermes-router/config.yaml), e.g.\n' +
  'providers:\n  - id: openai\n    kind: openai\n    api_key_env: OPENAI_API_KEY\n    models: [gpt-4.1-mini]\n' +
  'then restart the gateway. `hermes-router doctor` checks the result.';

export const allSwitchedOffMessage =
  'Every chat model is switched off, so chat routing is paused. Switch one on with ' +
  '`hermes-router models enable <provider/model>` or POST /v1/config/models/enabled {"provider","model","enabled":true}.';

/** What the router reads from the rest of the gateway. */
export interface ModelRouterDependencies {
  catalog: ModelCatalog;
  config: RoutingConfig;
  switches: { isEnabled(deployment: Deployment): boolean; readonly revision: number };
  /** 0 healthy; higher is worse. */
  health?: (deployment: Deployment) => number;
  affinity?: SessionAffinityStore;
  difficulty?: DifficultyEstimator;
  topic?: TopicRouter;
}

export interface RoutedModels {
  candidates: Candidate[];
  decision: ModelRoutingDecision;
  /** The topic's persona for this request, when the topic policy chose the route (not in `decision`: no text in the ledger). */
  persona?: RoutedPersona;
}

/**
 * Turns a request into the ordered candidates the attempt loop walks. A named model gets itself, its fallbacks,
 * then the global default (explicit); the alias lets the composed policies choose among every chat model.
 * Switches, then capabilities, filter before any call; every step writes its reason into the decision.
 */
export class ModelRouter {
  readonly affinity: SessionAffinityStore;
  readonly latency = new LatencyTracker();
  private readonly policies: Record<RoutingPolicyName, RoutingPolicy>;

  constructor(private dependencies: ModelRouterDependencies) {
    const config = dependencies.config;
    this.affinity = dependencies.affinity ?? new MemorySessionAffinity(config.affinity.ttl_ms, config.affinity.max_sessions);
    this.policies = {
      topic: topicPolicy(dependencies.topic),
      'cheapest-capable': cheapestCapablePolicy(dependencies.difficulty ?? heuristicDifficulty),
      'workload-hint': workloadHintPolicy,
      affinity: affinityPolicy(this.affinity),
    };
  }

  /** A reloaded config: the next request routes over the new catalog and settings (affinity and latency are kept). */
  reconfigure(catalog: ModelCatalog, config: RoutingConfig): void {
    this.dependencies = { ...this.dependencies, catalog, config };
  }

  /** Installs the topic router once it is available (it may load after the gateway starts). */
  setTopicRouter(router: TopicRouter): void {
    this.policies.topic = topicPolicy(router);
  }

  setDifficultyEstimator(estimator: DifficultyEstimator): void {
    this.policies['cheapest-capable'] = cheapestCapablePolicy(estimator);
  }

  /** After a success: remember the session's model and how fast it answered. */
  succeeded(sessionId: string | undefined, deployment: Deployment, timeToFirstByteMs: number | undefined): void {
    if (sessionId !== undefined) this.affinity.remember(sessionId, deployment.qualifiedName);
    if (timeToFirstByteMs !== undefined) this.latency.observe(deployment.qualifiedName, timeToFirstByteMs);
  }

  isAutomatic(requestedModel: string): boolean {
    return requestedModel === routerAlias || this.dependencies.config.auto_models.includes(requestedModel);
  }

  route(turn: Turn, sessionId: string | undefined): RoutedModels {
    const { catalog, config, switches } = this.dependencies;
    if (catalog.deployments.length === 0) throw new GatewayError('unavailable', noProviderMessage);
    const revision = switches.revision;
    if (turn.hints.policyRevision !== undefined && turn.hints.policyRevision !== String(revision)) {
      throw new GatewayError(
        'invalid_request',
        `The model policy changed (revision ${revision}, the request carries If-Match ${turn.hints.policyRevision}). Reload GET /v1/config/models and retry.`,
        { status: 409 },
      );
    }
    const toolLoop = turn.hints.toolLoop === true;
    if (toolLoop && turn.tools.length === 0) {
      throw new GatewayError('invalid_request', 'X-Hermes-Tool-Loop: true requires tool definitions in the request (`tools`).');
    }
    const chat = catalog.chatDeployments();
    if (chat.length === 0) {
      throw new GatewayError('unavailable', 'Only embeddings models are configured; add a chat model to a provider\'s `models` to serve chat.');
    }
    if (chat.every((deployment) => !switches.isEnabled(deployment))) {
      throw new GatewayError('unavailable', allSwitchedOffMessage);
    }
    const automatic = this.isAutomatic(turn.requestedModel) || (config.explicit === 'route' && catalog.resolve(turn.requestedModel).length > 0);
    let pool = automatic ? this.automaticPool() : this.explicitChain(turn.requestedModel);
    // A named model's chain may bound what its failover costs; the alias's pool is the router's own choice.
    const maxPrice = automatic ? undefined : this.maxPriceOf(turn.requestedModel);
    let priceCap: PriceCapDecision | undefined;
    if (maxPrice !== undefined) {
      const capped = capFallbackPrices(pool, maxPrice);
      pool = capped.candidates;
      priceCap = capped.decision;
    }
    const skipped: Skipped[] = [];
    const enabled = pool.filter((candidate) => {
      if (switches.isEnabled(candidate.deployment)) return true;
      skipped.push({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId, reason: 'switched off' });
      return false;
    });
    if (enabled.length === 0) {
      throw new GatewayError('unavailable', `Every candidate for "${turn.requestedModel}" is switched off (${pool.map((candidate) => candidate.deployment.qualifiedName).join(', ')}) and no enabled fallback is configured.`);
    }
    let candidates = filterByCapability(enabled, turn, skipped, !automatic);
    if (toolLoop) {
      const confirmed = candidates.filter((candidate) => confirmedCapability(candidate.deployment, 'supportsTools'));
      for (const candidate of candidates) {
        if (!confirmed.includes(candidate)) skipped.push({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId, reason: 'tool loop: tool calling not confirmed' });
      }
      if (confirmed.length === 0) {
        throw new GatewayError('unavailable', 'X-Hermes-Tool-Loop: no enabled model is confirmed to support tool calling. Set supports_tools: true on a model or run `hermes-router models probe`.');
      }
      candidates = confirmed;
    }
    if (candidates.length === 0) {
      const reasons = skipped.map((entry) => `${entry.provider}/${entry.model}: ${entry.reason}`).join('; ');
      throw new GatewayError('unavailable', `No model can take this request (${reasons}).`);
    }
    const steps: { policy: string; reason: string }[] = [];
    let persona: RoutedPersona | undefined;
    const decision: ModelRoutingDecision = { policy: automatic ? 'auto' : 'explicit', reason: '', candidates: [], policyRevision: revision };
    const context: PolicyContext = {
      turn,
      sessionId,
      explicit: !automatic,
      config,
      health: this.dependencies.health ?? (() => 0),
      latency: (deployment) => this.latency.average(deployment.qualifiedName),
    };
    const policyNames: RoutingPolicyName[] = automatic ? config.policies : config.policies.filter((name) => name === 'affinity');
    for (const name of policyNames) {
      let result;
      try {
        result = this.policies[name].order(candidates, context);
      } catch (error) {
        // Fail open: a broken policy (a classifier bug, a bad weights file) must not fail the request.
        steps.push({ policy: name, reason: `failed (${error instanceof Error ? error.message : String(error)}); order kept` });
        continue;
      }
      candidates = result.candidates;
      steps.push({ policy: name, reason: result.reason });
      if (result.difficulty !== undefined) decision.difficulty = result.difficulty;
      if (result.topic !== undefined) decision.topic = result.topic;
      if (result.persona !== undefined) persona = result.persona;
    }
    const lead = automatic ? 'the router chooses' : `the model the client named (${turn.requestedModel}), then its fallbacks`;
    decision.policy = automatic ? ['auto', ...policyNames].join(':') : ['explicit', ...policyNames].join(':');
    decision.reason = [lead, ...steps.map((step) => `${step.policy}: ${step.reason}`)].join('; ');
    decision.candidates = candidates.map((candidate) => ({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId }));
    if (steps.length > 0) decision.steps = steps;
    if (skipped.length > 0) decision.skipped = skipped;
    if (turn.hints.workloadHint !== undefined) decision.workloadHint = turn.hints.workloadHint;
    if (toolLoop) decision.toolLoop = true;
    if (priceCap) decision.priceCap = priceCap;
    return persona ? { candidates, decision, persona } : { candidates, decision };
  }

  /** Primary → its fallbacks → the global default and its fallbacks. */
  private explicitChain(requestedModel: string): Candidate[] {
    const { catalog, config } = this.dependencies;
    const requested = catalog.resolve(requestedModel);
    if (requested.length === 0) {
      const available = [routerAlias, ...catalog.modelNames()].join(', ');
      throw new GatewayError('model_not_found', `The model "${requestedModel}" is not served by this gateway. Available: ${available}.`);
    }
    if (requested.every((deployment) => deployment.embeddings === true)) {
      throw new GatewayError('invalid_request', `"${requestedModel}" is an embeddings model; send it to POST /v1/embeddings.`);
    }
    const chain = new ChainBuilder();
    chain.add(requested, 'explicit');
    this.addFallbacks(chain, [requestedModel, ...requested.map((deployment) => deployment.modelId)]);
    if (config.global_default_fallback) {
      const defaultModel = catalog.defaultModel();
      if (defaultModel !== undefined) {
        chain.add(catalog.resolve(defaultModel), 'default');
        this.addFallbacks(chain, [defaultModel]);
      }
    }
    return chain.candidates;
  }

  /** The `max_price` of the chain of the model the client named (by the name it used, or the model's own id). */
  private maxPriceOf(requestedModel: string): MaxPrice | undefined {
    const { catalog } = this.dependencies;
    const names = [requestedModel, ...catalog.resolve(requestedModel).map((deployment) => deployment.modelId)];
    for (const name of names) {
      const maxPrice = fallbackChain(catalog.config.fallbacks[name]).maxPrice;
      if (maxPrice !== undefined) return maxPrice;
    }
    return undefined;
  }

  /** Every chat model: the default's chain first (so ties keep it), then the rest in config order. */
  private automaticPool(): Candidate[] {
    const { catalog } = this.dependencies;
    const chain = new ChainBuilder();
    const defaultModel = catalog.defaultModel();
    if (defaultModel !== undefined) {
      chain.add(catalog.resolve(defaultModel), 'default');
      this.addFallbacks(chain, [routerAlias, defaultModel]);
    }
    chain.add(catalog.chatDeployments(), 'fallback');
    return chain.candidates;
  }

  private addFallbacks(chain: ChainBuilder, names: string[]): void {
    const fallbacks = this.dependencies.catalog.config.fallbacks;
    for (const name of new Set(names)) {
      for (const fallback of fallbackChain(fallbacks[name]).models) chain.add(this.dependencies.catalog.resolve(fallback), 'fallback');
    }
  }
}

/**
 * An ordered list of chat candidates without duplicates (the first reason a deployment was added wins).
 * Embeddings models never join a chat chain, whatever a fallback list says.
 */
class ChainBuilder {
  readonly candidates: Candidate[] = [];
  private readonly seen = new Set<string>();

  add(deployments: Deployment[], source: CandidateSource): void {
    for (const deployment of deployments) {
      if (this.seen.has(deployment.qualifiedName) || deployment.embeddings === true) continue;
      this.seen.add(deployment.qualifiedName);
      this.candidates.push({ deployment, source });
    }
  }
}
