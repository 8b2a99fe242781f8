import { catalogRow } from '../catalog/catalog-rows.js';
import type { CatalogRow } from '../catalog/catalog-rows.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { readConfiguredProbeResults } from './configured-probe-results.js';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import type { Command } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage = 'Usage: hermes-router models list [--config FILE] [--data-dir DIR] [--json]\n';

function flag(value: boolean | null): string {
  return value === null ? '?' : value ? 'yes' : 'no';
}

function price(value: number | null): string {
  return value === null ? '?' : `$${value}`;
}

/** Sources in one short column: c config, p probe, b bundled, n name pattern (for tools, vision, tier, window). */
function sourceLetters(row: CatalogRow): string {
  const letter = { config: 'c', probe: 'p', bundled: 'b', pattern: 'n' } as const;
  return (['supportsTools', 'supportsVision', 'tier', 'contextWindow'] as const)
    .map((field) => {
      const source = row.sources[field];
      return source ? letter[source] : '-';
    })
    .join('');
}

function table(rows: CatalogRow[]): string {
  const header = ['model', 'on', 'kind', 'context', 'tools', 'vision', 'reason', 'tier', 'in/M', 'out/M', 'src'];
  const lines = rows.map((row) => [
    `${row.provider}/${row.model}`,
    row.enabled ? 'on' : 'OFF',
    row.kind,
    row.contextWindow === null ? '?' : String(row.contextWindow),
    flag(row.tools),
    flag(row.vision),
    flag(row.reasoning),
    row.tier === null ? '?' : String(row.tier),
    price(row.inputPerMillion),
    price(row.outputPerMillion),
    sourceLetters(row),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [format(header), ...lines.map(format)].join('\n');
}

export const modelsListCommand: Command = {
  name: 'models list',
  summary: 'Show every (provider, model) with its switch, capabilities, tier and prices',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage);
    if (typeof setup === 'number') return setup;
    const { config, dataDir } = setup;
    const catalog = new ModelCatalog(config, {
      probes: await readConfiguredProbeResults(setup, context),
      probeTtlMs: config.routing.probe_ttl_hours * 3_600_000,
    });
    const store = new FilePolicyStore(policyFilePath(dataDir, context.env));
    const policy = store.loadSync();
    const rows = catalog.deployments.map((deployment) => catalogRow(deployment, policy.models[deployment.qualifiedName]?.enabled ?? true));
    if (setup.json) {
      context.stdout.write(`${JSON.stringify({ revision: policy.revision, policyFile: store.location, models: rows })}\n`);
      return 0;
    }
    if (rows.length === 0) {
      context.stdout.write('No models configured. Add a provider with its models to the config (see `hermes-router doctor`).\n');
      return 0;
    }
    context.stdout.write(`${table(rows)}\n\nsrc = where tools, vision, tier and context come from: c config, p probe, b bundled, n name pattern, - unknown.\n`);
    context.stdout.write(`Switches: ${store.location} (revision ${policy.revision}).\n`);
    return 0;
  },
};
