import type { Config, ModelEntry, ProviderConfig } from '../config/schema.js';
import type { Deployment, RequestShaping } from './deployment.js';
import { catalogueMetadata } from './metadata/catalogue-metadata.js';
import { knownModelMetadata } from './metadata/known-models.js';
import type { ModelMetadata } from './metadata/model-metadata.js';
import { metadataFromName } from './metadata/name-patterns.js';
import { freshProbe } from '../store/probes/probe-results.js';
import type { ProbeFile } from '../store/probes/probe-results.js';
import { resolveMetadata } from './metadata/resolve-metadata.js';

/** The alias that means "the configured default model" (and, with routing policies, "let the router choose"). */
export const routerAlias = 'hermes-router';

export interface ModelCatalogOptions {
  /** Cached `models probe` results; only those younger than `probeTtlMs` are used. */
  probes?: ProbeFile;
  probeTtlMs?: number;
  now?: number;
}

function configMetadata(entry: ModelEntry): ModelMetadata {
  if (typeof entry === 'string') return {};
  const metadata: ModelMetadata = {};
  if (entry.context_window !== undefined) metadata.contextWindow = entry.context_window;
  if (entry.max_output_tokens !== undefined) metadata.maxOutputTokens = entry.max_output_tokens;
  if (entry.supports_tools !== undefined) metadata.supportsTools = entry.supports_tools;
  if (entry.supports_vision !== undefined) metadata.supportsVision = entry.supports_vision;
  if (entry.supports_reasoning !== undefined) metadata.supportsReasoning = entry.supports_reasoning;
  if (entry.embeddings !== undefined) metadata.embeddings = entry.embeddings;
  if (entry.tier !== undefined) metadata.tier = entry.tier;
  if (entry.prices !== undefined) metadata.prices = entry.prices;
  return metadata;
}

/** The provider's and the model entry's shaping together; undefined when neither shapes anything. */
function shapingOf(provider: ProviderConfig, entry: ModelEntry): RequestShaping | undefined {
  const model = typeof entry === 'string' ? undefined : entry;
  const extraBody = provider.extra_body || model?.extra_body ? { ...provider.extra_body, ...model?.extra_body } : undefined;
  const dropFields = [...(provider.drop_fields ?? []), ...(model?.drop_fields ?? [])];
  const shaping: RequestShaping = {};
  if (extraBody) shaping.extraBody = extraBody;
  if (model?.headers) shaping.headers = model.headers;
  if (dropFields.length > 0) shaping.dropFields = dropFields;
  return Object.keys(shaping).length > 0 ? shaping : undefined;
}

function buildDeployment(provider: ProviderConfig, entry: ModelEntry, options: ModelCatalogOptions): Deployment {
  const modelId = typeof entry === 'string' ? entry : entry.id;
  const upstreamModel = typeof entry === 'string' ? entry : (entry.upstream_id ?? entry.id);
  const qualifiedName = `${provider.id}/${modelId}`;
  const probe = options.probes
    ? freshProbe(options.probes, qualifiedName, options.probeTtlMs ?? Number.POSITIVE_INFINITY, options.now ?? Date.now())
    : undefined;
  const probed: ModelMetadata = {};
  if (probe?.supportsTools !== undefined) probed.supportsTools = probe.supportsTools;
  if (probe?.supportsVision !== undefined) probed.supportsVision = probe.supportsVision;
  const bundled: ModelMetadata = { ...catalogueMetadata(provider.kind, upstreamModel), ...knownModelMetadata(upstreamModel) };
  const { metadata, sources } = resolveMetadata([
    { source: 'config', metadata: configMetadata(entry) },
    { source: 'probe', metadata: probed },
    { source: 'bundled', metadata: bundled },
    { source: 'pattern', metadata: metadataFromName(upstreamModel) },
  ]);
  const deployment: Deployment = { providerId: provider.id, providerKind: provider.kind, modelId, upstreamModel, qualifiedName, ...metadata, sources };
  if (provider.skip_tokens_over !== undefined) deployment.skipTokensOver = provider.skip_tokens_over;
  const shaping = shapingOf(provider, entry);
  if (shaping) deployment.shaping = shaping;
  return deployment;
}

/**
 * Every (provider, model) the config declares, with its metadata merged from config, probe results, bundled
 * data and name patterns, and name resolution for client-facing model names.
 */
export class ModelCatalog {
  readonly deployments: Deployment[] = [];
  /** What each deployment was built from, so new probe results can rebuild it. */
  private readonly declarations: { provider: ProviderConfig; entry: ModelEntry; deployment: Deployment }[] = [];
  private readonly options: ModelCatalogOptions;
  private readonly byModel = new Map<string, Deployment[]>();
  private readonly byQualifiedName = new Map<string, Deployment>();

  constructor(
    readonly config: Config,
    options: ModelCatalogOptions = {},
  ) {
    this.options = options;
    for (const provider of config.providers) {
      if (!provider.enabled) continue;
      // `auto` is replaced by the provider's listed models before a gateway builds its catalog (pipeline/auto-models.ts).
      for (const entry of provider.models === 'auto' ? [] : provider.models) {
        const deployment = buildDeployment(provider, entry, options);
        this.declarations.push({ provider, entry, deployment });
        this.deployments.push(deployment);
        this.byQualifiedName.set(deployment.qualifiedName, deployment);
        const list = this.byModel.get(deployment.modelId) ?? [];
        list.push(deployment);
        this.byModel.set(deployment.modelId, list);
      }
    }
  }

  /**
   * Takes probe results learned after the catalog was built (a probe run on another cluster instance). The
   * deployments are updated in place, not replaced (the router, switches and routes hold these objects); the
   * swap is synchronous, so a request sees either the old or the new metadata of a deployment, never a mix.
   * Freshness (`probeTtlMs`) is judged again against `now`.
   */
  updateProbes(probes: ProbeFile, now = Date.now()): void {
    const options: ModelCatalogOptions = { ...this.options, probes, now };
    for (const { provider, entry, deployment } of this.declarations) {
      const rebuilt = buildDeployment(provider, entry, options);
      for (const field of Object.keys(deployment) as (keyof Deployment)[]) {
        if (!(field in rebuilt)) delete (deployment as Partial<Deployment>)[field];
      }
      Object.assign(deployment, rebuilt);
    }
  }

  /** The model the alias stands for: `default_model`, else the first chat model configured. */
  defaultModel(): string | undefined {
    return this.config.default_model ?? this.chatDeployments()[0]?.modelId ?? this.deployments[0]?.modelId;
  }

  /**
   * Deployments a name refers to: `provider/model` is exactly one; a bare model id is every provider serving it,
   * in config order; the alias resolves to the default model. Unknown names give an empty list.
   */
  resolve(name: string): Deployment[] {
    const target = name === routerAlias ? this.defaultModel() : name;
    if (target === undefined) return [];
    const exact = this.byModel.get(target);
    if (exact) return exact;
    const qualified = this.byQualifiedName.get(target);
    return qualified ? [qualified] : [];
  }

  find(providerId: string, modelId: string): Deployment | undefined {
    return this.byQualifiedName.get(`${providerId}/${modelId}`);
  }

  /** Models that answer chat: everything not known to be an embeddings model. */
  chatDeployments(): Deployment[] {
    return this.deployments.filter((deployment) => deployment.embeddings !== true);
  }

  embeddingDeployments(): Deployment[] {
    return this.deployments.filter((deployment) => deployment.embeddings === true);
  }

  /** Client-facing model names, for `GET /v1/models`. */
  modelNames(): string[] {
    return [...this.byModel.keys()];
  }
}
