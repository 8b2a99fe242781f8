import { runProbes } from '../catalog/probe/run-probes.js';
import { openConfiguredProbeStore } from '../pipeline/stores/open-probe-store.js';
import type { Command } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage =
  'Usage: hermes-router models probe [provider/model …] [--config FILE] [--data-dir DIR] [--json]\n' +
  'Checks tool calling and vision with one cheap call each per chat model and caches the result\n' +
  '(routing.probe_ttl_hours) in model-probes.json in the data directory, or with storage: {kind: cluster}\n' +
  "in the cluster's Postgres, where every instance picks it up. Costs a few tokens per model.\n";

function verdict(value: boolean | undefined): string {
  return value === undefined ? 'unknown' : value ? 'yes' : 'no';
}

export const modelsProbeCommand: Command = {
  name: 'models probe',
  summary: 'Check tool calling and vision of each model with one cheap call each; cache the results',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage);
    if (typeof setup === 'number') return setup;
    let opened;
    try {
      opened = await openConfiguredProbeStore({ storage: setup.config.storage, dataDir: setup.dataDir, env: context.env });
    } catch (error) {
      context.stderr.write(`${error instanceof Error ? error.message : String(error)}; nothing was probed.\n`);
      return 1;
    }
    let outcome;
    try {
      outcome = await runProbes({
        config: setup.config,
        env: context.env,
        store: opened.store,
        only: setup.positionals,
        onModel: (name, index, total) => {
          if (!setup.json) context.stderr.write(`[${index + 1}/${total}] probing ${name}…\n`);
        },
      });
    } catch (error) {
      context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    } finally {
      await opened.close();
    }
    const { reports, location: path } = outcome;
    if (setup.json) {
      context.stdout.write(`${JSON.stringify({ path, models: reports })}\n`);
      return 0;
    }
    if (reports.length === 0) {
      context.stdout.write(setup.positionals.length > 0 ? `No configured chat model matches ${setup.positionals.join(', ')}.\n` : 'No chat models configured.\n');
      return setup.positionals.length > 0 ? 1 : 0;
    }
    for (const report of reports) {
      context.stdout.write(`${report.model}: tools ${verdict(report.result.supportsTools)}, vision ${verdict(report.result.supportsVision)} (${report.calls} calls)\n`);
      for (const note of report.notes) context.stdout.write(`    ${note}\n`);
    }
    context.stdout.write(
      setup.config.storage.kind === 'cluster'
        ? `Saved to ${path}; running instances pick it up within moments.\n`
        : `Saved to ${path}; the gateway reads it at start.\n`,
    );
    return 0;
  },
};
