import type { Config } from '../config/schema.js';
import type { Deployment } from './deployment.js';

/** The alias that means "the configured default model". */
export const routerAlias = 'hermes-router';

/** Every (provider, model) the config declares, and name resolution for client-facing model names. */
export class ModelCatalog {
  readonly deployments: Deployment[];
  private readonly byModel = new Map<string, Deployment[]>();
  private readonly byQualifiedName = new Map<string, Deployment>();

  constructor(readonly config: Config) {
    this.deployments = [];
    for (const provider of config.providers) {
      if (!provider.enabled) continue;
      for (const entry of provider.models) {
        const deployment: Deployment =
          typeof entry === 'string'
            ? { providerId: provider.id, modelId: entry, upstreamModel: entry, qualifiedName: `${provider.id}/${entry}` }
            : {
                providerId: provider.id,
                modelId: entry.id,
                upstreamModel: entry.upstream_id ?? entry.id,
                qualifiedName: `${provider.id}/${entry.id}`,
                contextWindow: entry.context_window,
                maxOutputTokens: entry.max_output_tokens,
                supportsTools: entry.supports_tools,
                supportsVision: entry.supports_vision,
                supportsReasoning: entry.supports_reasoning,
                embeddings: entry.embeddings,
                tier: entry.tier,
                prices: entry.prices,
              };
        if (provider.skip_tokens_over !== undefined) deployment.skipTokensOver = provider.skip_tokens_over;
        this.deployments.push(deployment);
        this.byQualifiedName.set(deployment.qualifiedName, deployment);
        const list = this.byModel.get(deployment.modelId) ?? [];
        list.push(deployment);
        this.byModel.set(deployment.modelId, list);
      }
    }
  }

  /** The model the alias stands for: `default_model`, else the first model configured. */
  defaultModel(): string | undefined {
    return this.config.default_model ?? this.deployments[0]?.modelId;
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

  /** Client-facing model names, for `GET /v1/models`. */
  modelNames(): string[] {
    return [...this.byModel.keys()];
  }
}
