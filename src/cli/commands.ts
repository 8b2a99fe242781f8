import type { Command } from './command.js';
import { holdYoungGeneration, releaseYoungGeneration } from './start-heap.js';
import { startRecordingCompileCache } from './compile-cache-handle.js';

/**
 * Every CLI command, one line each. Commands are loaded lazily so `hermes-router start` does not pay for the
 * evaluation harnesses or report code.
 */
export const commandLoaders: Record<string, { summary: string; load: () => Promise<Command> }> = {
  'report daily': { summary: 'Tokens and cost per day from the ledger', load: async () => (await import('./report-daily.js')).reportDailyCommand },
  'report sessions': { summary: 'Tokens and cost per session from the ledger', load: async () => (await import('./report-sessions.js')).reportSessionsCommand },
  'report models': { summary: 'Tokens, cost, failovers and latency per model from the ledger', load: async () => (await import('./report-models.js')).reportModelsCommand },
  'report requests': { summary: 'Individual requests from the ledger, newest first', load: async () => (await import('./report-requests.js')).reportRequestsCommand },
  'report savings': { summary: 'What tool routing, model routing and the prompt cache saved (USD), with the method', load: async () => (await import('./report-savings.js')).reportSavingsCommand },
  'report quality': { summary: 'Session quality scores (0-100, S to F) from measured context fill, length, cache and failures', load: async () => (await import('./report-quality.js')).reportQualityCommand },
  summary: { summary: 'One screen: today, this week, savings and the worst sessions', load: async () => (await import('./summary.js')).summaryCommand },
  'import hermes': { summary: 'Import Hermes sessions that bypassed the gateway from ~/.hermes/state.db (read-only)', load: async () => (await import('./import-hermes.js')).importHermesCommand },
  'setup hermes': { summary: "Add the gateway to Hermes Agent's config.yaml as a custom provider (backup, idempotent, diff)", load: async () => (await import('./setup-hermes.js')).setupHermesCommand },
  start: {
    summary: 'Run the gateway (default 127.0.0.1:8319)',
    // Held before the server's modules load (their evaluation is most of what a start allocates, start-heap.ts);
    // released once it listens, or here when the start fails or is refused.
    load: async () => {
      holdYoungGeneration();
      // What compiles from here until start listens is what the compile cache keeps (compile-cache-handle.ts).
      startRecordingCompileCache();
      try {
        // Before the config's modules load (zod-jitless.ts).
        (await import('./zod-jitless.js')).validateWithoutGeneratedCode();
        const { startCommand } = await import('./start.js');
        return { ...startCommand, run: (args, context) => startCommand.run(args, context).finally(releaseYoungGeneration) };
      } catch (error) {
        releaseYoungGeneration();
        throw error;
      }
    },
  },
  'eval sessions': { summary: 'Measure multi-turn tool routing through the gateway', load: async () => (await import('./eval-sessions.js')).evalSessionsCommand },
  'router on': { summary: 'Switch tool routing on (live)', load: async () => (await import('./router-mode.js')).routerCommands.on },
  'router shadow': { summary: 'Tool routing in shadow mode: decide and record, send everything', load: async () => (await import('./router-mode.js')).routerCommands.shadow },
  'router off': { summary: 'Switch tool routing off (live)', load: async () => (await import('./router-mode.js')).routerCommands.off },
  'router status': { summary: 'Show the tool routing mode', load: async () => (await import('./router-mode.js')).routerCommands.status },
  'report routing': { summary: 'Tool surfaces, tokens saved, recoveries and model routes', load: async () => (await import('./report-routing.js')).reportRoutingCommand },
  'service install': { summary: 'Run the gateway as a user service (systemd unit or launchd agent)', load: async () => (await import('./service.js')).serviceCommands.install },
  'service uninstall': { summary: 'Stop and remove the user service', load: async () => (await import('./service.js')).serviceCommands.uninstall },
  'service status': { summary: 'Show whether the user service is installed and running', load: async () => (await import('./service.js')).serviceCommands.status },
  dashboard: { summary: 'Print the dashboard address with a one-time login link', load: async () => (await import('./dashboard.js')).dashboardCommand },
  doctor: { summary: 'Check config, providers, port and data directory', load: async () => (await import('./doctor.js')).doctorCommand },
  'eval tools': { summary: 'Measure first-turn tool routing on labelled cases', load: async () => (await import('./eval-tools.js')).evalToolsCommand },
  'eval topics': { summary: 'Measure topic routing (or user-defined routes on CLINC rows)', load: async () => (await import('./eval-topics.js')).evalTopicsCommand },
  'eval difficulty': { summary: 'Measure the difficulty model as a strong/weak router (RouteLLM metrics)', load: async () => (await import('./eval-difficulty.js')).evalDifficultyCommand },
  'models list': { summary: 'Show every provider/model with its switch, capabilities, tier and prices', load: async () => (await import('./models-list.js')).modelsListCommand },
  'models probe': { summary: 'Check tool calling and vision per model with one cheap call each', load: async () => (await import('./models-probe.js')).modelsProbeCommand },
  'models enable': { summary: 'Switch a provider/model on (live through the admin API, or in the policy file)', load: async () => (await import('./models-switch.js')).modelsEnableCommand },
  'models disable': { summary: 'Switch a provider/model off (live through the admin API, or in the policy file)', load: async () => (await import('./models-switch.js')).modelsDisableCommand },
  'keys create': { summary: 'Create an application key (shown once) with scopes and limits', load: async () => (await import('./keys.js')).keysCreateCommand },
  'keys list': { summary: 'List application keys: id, name, last 4 characters, scopes, limits', load: async () => (await import('./keys.js')).keysListCommand },
  'keys revoke': { summary: 'Revoke an application key by id (takes effect on the next request)', load: async () => (await import('./keys.js')).keysRevokeCommand },
  'keys admin-reset': { summary: 'Generate a new admin key (shown once; replaces the stored one)', load: async () => (await import('./keys.js')).keysAdminResetCommand },
  budgets: { summary: 'Budgets from the config with what was spent against each, from the ledger', load: async () => (await import('./budgets.js')).budgetsCommand },
  'models discover': { summary: "Read each provider's model list and show what could be added", load: async () => (await import('./models-discover.js')).modelsDiscoverCommand },
  'models route': { summary: 'Explain which models would answer a prompt, and why (no provider is called)', load: async () => (await import('./models-route.js')).modelsRouteCommand },
};
