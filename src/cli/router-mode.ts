import { toolRoutingModes } from '../tools/config.js';
import type { ToolRoutingMode } from '../tools/config.js';
import { readRouterMode, routerModeFilePath, writeRouterMode } from '../tools/router-mode-file.js';
import { gatewayRunning, gatewayUrl } from './running-gateway.js';
import type { Command, CommandContext } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage =
  'Usage: hermes-router router on|off|shadow|status [--url http://127.0.0.1:8319] [--config FILE] [--data-dir DIR] [--json]\n' +
  'Switches tool routing live on the running gateway (admin key from HERMES_ROUTER_ADMIN_KEY); when none is\n' +
  'running, writes tool-routing-mode.json in the data directory, which the gateway reads at start.\n' +
  '  on      narrow first turns, recover on request_toolset (default)\n' +
  '  shadow  decide and record, but send the full surface (see the savings before trusting it)\n' +
  '  off     send the full surface; narrowed sessions get it back on their next turn\n';

function routerCommand(action: ToolRoutingMode | 'status'): Command {
  return {
    name: `router ${action}`,
    summary: action === 'status' ? 'Show the tool routing mode' : `Switch tool routing ${action} (live, no restart)`,
    async run(args: string[], context: CommandContext) {
      const setup = setupModelsCommand(args, context, usage, { url: { type: 'string' } });
      if (typeof setup === 'number') return setup;
      const url = gatewayUrl(setup.config.server, setup.values.url);
      let mode: ToolRoutingMode;
      let via: 'gateway' | 'file';
      if (await gatewayRunning(url)) {
        const adminKey = context.env.HERMES_ROUTER_ADMIN_KEY;
        if (!adminKey) {
          context.stderr.write(`A gateway is running at ${url}; set HERMES_ROUTER_ADMIN_KEY (the value it runs with) to use the admin API.\n`);
          return 1;
        }
        const response = await fetch(`${url}/v1/config/router`, {
          method: action === 'status' ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
          ...(action === 'status' ? {} : { body: JSON.stringify({ mode: action }) }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json().catch(() => ({}))) as { mode?: ToolRoutingMode; error?: { message?: string } };
        if (!response.ok || !body.mode) {
          context.stderr.write(`The gateway answered ${response.status}: ${body.error?.message ?? 'no message'}\n`);
          return 1;
        }
        mode = body.mode;
        via = 'gateway';
      } else {
        if (action !== 'status') writeRouterMode(setup.dataDir, action);
        mode = readRouterMode(setup.dataDir) ?? setup.config.tool_routing.mode;
        via = 'file';
      }
      const target = via === 'gateway' ? url : routerModeFilePath(setup.dataDir);
      if (setup.json) context.stdout.write(`${JSON.stringify({ mode, via, target })}\n`);
      else context.stdout.write(`tool routing: ${mode} (${via === 'gateway' ? `live on ${url}` : `saved in ${target}; applies at the next start`})\n`);
      return 0;
    },
  };
}

export const routerCommands = Object.fromEntries(
  [...toolRoutingModes, 'status' as const].map((action) => [action, routerCommand(action)]),
) as Record<ToolRoutingMode | 'status', Command>;
