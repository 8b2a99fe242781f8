import type { ProviderConfig } from '../config/schema.js';
import { modelListed } from '../providers/listed-models.js';
import { listProviderModels } from '../pipeline/auto-models.js';
import type { Command } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage = `Usage: hermes-router models discover [--provider ID] [--config FILE] [--data-dir DIR] [--json]

Reads each configured provider's model list (/v1/models, or Anthropic's models list) and shows which of its
models the config does not serve yet (they could be added), and which configured models it does not list.
`;

interface Discovery {
  provider: string;
  ok: boolean;
  error?: string;
  listed: string[];
  /** Listed and not configured: could be added. */
  addable: string[];
  /** Configured and not listed (a typo, or a model the provider retired). */
  unlisted: string[];
  auto: boolean;
}

function configuredNames(provider: ProviderConfig): string[] {
  if (provider.models === 'auto') return [];
  return provider.models.map((model) => (typeof model === 'string' ? model : (model.upstream_id ?? model.id)));
}

async function discover(provider: ProviderConfig, env: NodeJS.ProcessEnv): Promise<Discovery> {
  const configured = configuredNames(provider);
  const auto = provider.models === 'auto';
  try {
    const listed = await listProviderModels(provider, env);
    return {
      provider: provider.id,
      ok: true,
      listed,
      addable: auto ? [] : listed.filter((id) => !configured.some((name) => modelListed(name, [id]))),
      unlisted: configured.filter((name) => !modelListed(name, listed)),
      auto,
    };
  } catch (error) {
    return { provider: provider.id, ok: false, error: error instanceof Error ? error.message : String(error), listed: [], addable: [], unlisted: [], auto };
  }
}

function render(discovery: Discovery): string {
  if (!discovery.ok) return `${discovery.provider}: could not list its models (${discovery.error})`;
  const lines = [`${discovery.provider}: lists ${discovery.listed.length} model(s)${discovery.auto ? ' (models: auto serves them all)' : ''}`];
  if (discovery.addable.length > 0) lines.push(`  could be added (${discovery.addable.length}): ${discovery.addable.join(', ')}`);
  else if (!discovery.auto) lines.push('  every listed model is already configured');
  if (discovery.unlisted.length > 0) lines.push(`  configured but not listed: ${discovery.unlisted.join(', ')}`);
  return lines.join('\n');
}

/** `hermes-router models discover`: what each provider lists against what the config serves. */
export const modelsDiscoverCommand: Command = {
  name: 'models discover',
  summary: "Read each provider's model list and show what could be added",
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage, { provider: { type: 'string' } });
    if (typeof setup === 'number') return setup;
    const wanted = typeof setup.values.provider === 'string' ? setup.values.provider : undefined;
    const providers = setup.config.providers.filter((provider) => provider.enabled && (wanted === undefined || provider.id === wanted));
    if (wanted !== undefined && providers.length === 0) {
      context.stderr.write(`models discover: no enabled provider "${wanted}" in the config (${setup.config.providers.map((provider) => provider.id).join(', ') || 'none configured'})\n`);
      return 1;
    }
    const discoveries = await Promise.all(providers.map((provider) => discover(provider, context.env)));
    if (setup.json) context.stdout.write(`${JSON.stringify({ report: 'models-discover', providers: discoveries })}\n`);
    else context.stdout.write(`${discoveries.map(render).join('\n') || 'No providers configured.'}\n`);
    return discoveries.every((discovery) => discovery.ok) ? 0 : 1;
  },
};
