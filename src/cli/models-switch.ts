import { ModelCatalog } from '../catalog/model-catalog.js';
import { ModelSwitches } from '../models/switches/model-switches.js';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import { gatewayRunning, gatewayUrl } from './running-gateway.js';
import { adminCredential } from './admin-credential.js';
import type { Command, CommandContext } from './command.js';
import { setupModelsCommand } from './models-setup.js';

function usage(action: string): string {
  return (
    `Usage: hermes-router models ${action} <provider/model> [--url http://127.0.0.1:8319] [--config FILE] [--data-dir DIR] [--json]\n` +
    'Talks to the running gateway (admin key from HERMES_ROUTER_ADMIN_KEY); when none is running, edits\n' +
    'model-policy.json in the data directory, which the gateway reads at start.\n'
  );
}

interface SwitchOutcome {
  provider: string;
  model: string;
  enabled: boolean;
  revision: number;
  via: 'gateway' | 'file';
  target: string;
}

async function viaGateway(url: string, adminKey: string, provider: string, model: string, enabled: boolean): Promise<SwitchOutcome> {
  const response = await fetch(`${url}/v1/config/models/enabled`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
    body: JSON.stringify({ provider, model, enabled }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json().catch(() => ({}))) as { revision?: number; error?: { message?: string } };
  if (!response.ok) throw new Error(`the gateway answered ${response.status}: ${body.error?.message ?? 'no message'}`);
  return { provider, model, enabled, revision: body.revision ?? -1, via: 'gateway', target: url };
}

function switchCommand(action: 'enable' | 'disable'): Command {
  const enabled = action === 'enable';
  return {
    name: `models ${action}`,
    summary: enabled ? 'Switch a provider/model on (live, no restart)' : 'Switch a provider/model off (live, no restart)',
    async run(args: string[], context: CommandContext) {
      const setup = setupModelsCommand(args, context, usage(action), { url: { type: 'string' } });
      if (typeof setup === 'number') return setup;
      const name = setup.positionals[0];
      const slash = name?.indexOf('/') ?? -1;
      if (name === undefined || slash <= 0) {
        context.stderr.write(`Name the model as provider/model.\n${usage(action)}`);
        return 2;
      }
      const provider = name.slice(0, slash);
      const model = name.slice(slash + 1);
      const catalog = new ModelCatalog(setup.config);
      if (!catalog.find(provider, model)) {
        const known = catalog.deployments.map((deployment) => deployment.qualifiedName).join(', ');
        context.stderr.write(`No model ${name} in the config. Configured: ${known || 'none'}.\n`);
        return 1;
      }
      const url = gatewayUrl(setup.config.server, setup.values.url);
      let outcome: SwitchOutcome;
      try {
        if (await gatewayRunning(url)) {
          const credential = adminCredential(context.env, setup.dataDir);
          if (credential.key === undefined) {
            context.stderr.write(`A gateway is running at ${url}; to switch the model live, ${credential.advice}.\n`);
            return 1;
          }
          outcome = await viaGateway(url, credential.key, provider, model, enabled);
        } else {
          const store = new FilePolicyStore(policyFilePath(setup.dataDir, context.env));
          const switches = new ModelSwitches(store, store.loadSync());
          const state = await switches.set({ provider, model, enabled }, undefined, 'cli');
          outcome = { provider, model, enabled, revision: state.revision, via: 'file', target: store.location };
        }
      } catch (error) {
        context.stderr.write(`models ${action}: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
      if (setup.json) {
        context.stdout.write(`${JSON.stringify(outcome)}\n`);
        return 0;
      }
      const how = outcome.via === 'gateway' ? `live on the gateway at ${outcome.target}` : `in ${outcome.target} (no gateway running; applies when it starts)`;
      context.stdout.write(`${provider}/${model} is now ${enabled ? 'on' : 'off'} — ${how}, revision ${outcome.revision}.\n`);
      return 0;
    },
  };
}

export const modelsEnableCommand = switchCommand('enable');
export const modelsDisableCommand = switchCommand('disable');
