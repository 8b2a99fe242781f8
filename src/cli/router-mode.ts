import { ModelSwitches } from '../models/switches/model-switches.js';
import type { Config } from '../config/schema.js';
import { resolveStorageUrl } from '../config/storage.js';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import type { PolicyStore } from '../store/policy/policy-store.js';
import { toolRoutingModes } from '../tools/config.js';
import type { ToolRoutingMode } from '../tools/config.js';
import { saveRouterMode, startingRouterMode } from '../tools/router-mode-policy.js';
import { gatewayRunning, gatewayUrl } from './running-gateway.js';
import { adminCredential } from './admin-credential.js';
import type { Command, CommandContext } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage =
  'Usage: hermes-router router on|off|shadow|status [--url http://127.0.0.1:8319] [--config FILE] [--data-dir DIR] [--json]\n' +
  'Switches tool routing live on the running gateway (admin key from HERMES_ROUTER_ADMIN_KEY); in a cluster every\n' +
  'instance follows. When none is running, saves the mode in the routing policy (model-policy.json in the data\n' +
  'directory, or Postgres with storage kind cluster), which gateways read at start.\n' +
  '  on      narrow first turns, recover on request_toolset (default)\n' +
  '  shadow  decide and record, but send the full surface (see the savings before trusting it)\n' +
  '  off     send the full surface; narrowed sessions get it back on their next turn\n';

/** The policy store the gateway itself would use with this config. */
async function openPolicyStore(config: Config, dataDir: string, env: NodeJS.ProcessEnv): Promise<{ store: PolicyStore; via: 'file' | 'postgres'; close(): Promise<void> }> {
  const storage = config.storage;
  if (storage.kind !== 'cluster') return { store: new FilePolicyStore(policyFilePath(dataDir, env)), via: 'file', close: () => Promise.resolve() };
  // Loaded only for a cluster, as in the gateway: a single instance never loads the Postgres client.
  const { PostgresPolicyStore } = await import('../store/postgres/postgres-policy-store.js');
  const store = new PostgresPolicyStore({
    url: resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, env),
    schema: storage.postgres_schema,
    maxConnections: 1,
  });
  return { store, via: 'postgres', close: () => store.close() };
}

async function viaGateway(url: string, adminKey: string, action: ToolRoutingMode | 'status'): Promise<ToolRoutingMode> {
  const response = await fetch(`${url}/v1/config/router`, {
    method: action === 'status' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
    ...(action === 'status' ? {} : { body: JSON.stringify({ mode: action }) }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json().catch(() => ({}))) as { mode?: ToolRoutingMode; error?: { message?: string } };
  if (!response.ok || !body.mode) throw new Error(`the gateway answered ${response.status}: ${body.error?.message ?? 'no message'}`);
  return body.mode;
}

async function viaPolicy(
  config: Config,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  action: ToolRoutingMode | 'status',
): Promise<{ mode: ToolRoutingMode; via: 'file' | 'postgres'; target: string }> {
  const { store, via, close } = await openPolicyStore(config, dataDir, env);
  try {
    const policy = new ModelSwitches(store, await store.load());
    if (action !== 'status') await saveRouterMode(policy, action, 'cli');
    return { mode: startingRouterMode(policy, dataDir, config.tool_routing.mode), via, target: store.location };
  } finally {
    await close();
  }
}

function routerCommand(action: ToolRoutingMode | 'status'): Command {
  return {
    name: `router ${action}`,
    summary: action === 'status' ? 'Show the tool routing mode' : `Switch tool routing ${action} (live, no restart)`,
    async run(args: string[], context: CommandContext) {
      const setup = setupModelsCommand(args, context, usage, { url: { type: 'string' } });
      if (typeof setup === 'number') return setup;
      const url = gatewayUrl(setup.config.server, setup.values.url);
      let mode: ToolRoutingMode;
      let via: 'gateway' | 'file' | 'postgres';
      let target: string;
      try {
        if (await gatewayRunning(url)) {
          const credential = adminCredential(context.env, setup.dataDir);
          if (credential.key === undefined) {
            context.stderr.write(`A gateway is running at ${url}; to use its admin API, ${credential.advice}.\n`);
            return 1;
          }
          mode = await viaGateway(url, credential.key, action);
          via = 'gateway';
          target = url;
        } else {
          ({ mode, via, target } = await viaPolicy(setup.config, setup.dataDir, context.env, action));
        }
      } catch (error) {
        context.stderr.write(`router ${action}: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
      if (setup.json) context.stdout.write(`${JSON.stringify({ mode, via, target })}\n`);
      else context.stdout.write(`tool routing: ${mode} (${via === 'gateway' ? `live on ${url}` : via === 'postgres' ? `saved in ${target}; running instances follow at their next resync` : `saved in ${target}; applies at the next start`})\n`);
      return 0;
    },
  };
}

export const routerCommands = Object.fromEntries(
  [...toolRoutingModes, 'status' as const].map((action) => [action, routerCommand(action)]),
) as Record<ToolRoutingMode | 'status', Command>;
