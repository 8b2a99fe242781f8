import { ConfigError } from '../config/config-error.js';
import { DataDirError, ensureDataDir } from '../config/data-dir.js';
import { loadConfig } from '../pipeline/load-config.js';
import { resolveDataDir } from '../config/paths.js';
import { runConfiguredGateway } from '../server/run-configured-gateway.js';
import { StartupRefused } from '../security/open-security.js';
import { loginLinkPath } from '../security/dashboard/login-links.js';
import { flagsOrExit, parsePort } from './arguments.js';
import type { Command } from './command.js';
import { describePortInUse } from './port-holder.js';
import { releaseYoungGeneration } from './start-heap.js';
import { compactHeapApplied, gatewayHeapSettings } from './heap-settings.js';
import { growYoungGenerationUnderLoad } from './young-generation-limit.js';
import { saveCompileCache } from './compile-cache-handle.js';
import { collectAfterStart, collectWhenIdle } from './idle-collection.js';
import { warmToolsetClassifier } from '../classify/toolsets/warm-up.js';
import { loadUndici } from '../providers/http/undici-agent.js';

const usage = `Usage: hermes-router start [--config FILE] [--port N] [--host H] [--data-dir DIR] [--log-format auto|text|json]

Runs the gateway (default 127.0.0.1:8319) until SIGINT/SIGTERM. Config: --config, else ./hermes-router.yaml,
else ~/.hermes-router/config.yaml. Data: --data-dir, else $HERMES_ROUTER_HOME, else ~/.hermes-router.
Logs (stderr): one readable line per request on a terminal, JSON lines otherwise; --log-format chooses.
`;

function failure(context: Parameters<Command['run']>[1], message: string): number {
  context.stderr.write(`hermes-router start: ${message}\n`);
  return 1;
}

export const startCommand: Command = {
  name: 'start',
  summary: 'Run the gateway (default 127.0.0.1:8319)',
  async run(args, context) {
    const flags = flagsOrExit(
      args,
      {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'log-format': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      usage,
      context,
    );
    if (typeof flags === 'number') return flags;
    const dataDir = resolveDataDir({ flag: flags['data-dir'], env: context.env });
    let port;
    try {
      port = parsePort(flags.port);
    } catch (error) {
      return failure(context, error instanceof Error ? error.message : String(error));
    }
    const loadOptions = {
      configPath: flags.config ?? context.env.HERMES_ROUTER_CONFIG,
      cwd: context.cwd,
      dataDir,
      env: context.env,
      overrides: { host: flags.host, port, logFormat: flags['log-format'] },
    };
    let loaded;
    try {
      loaded = loadConfig(loadOptions);
      ensureDataDir(dataDir);
    } catch (error) {
      if (error instanceof ConfigError || error instanceof DataDirError) return failure(context, error.message);
      return failure(context, error instanceof Error ? error.message : String(error));
    }
    const { config, source } = loaded;
    let running;
    try {
      // SIGHUP and POST /v1/config/reload re-read the same file with the same flags.
      running = await runConfiguredGateway({ config, dataDir, env: context.env, configSource: () => loadConfig(loadOptions).config });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        const { host, port } = config.server;
        return failure(context, `${describePortInUse(host, port)}. Stop it, or pick another port: hermes-router start --port ${port + 1}`);
      }
      if (code === 'EADDRNOTAVAIL') return failure(context, `cannot listen on ${config.server.host}: no such address on this machine (--host)`);
      if (code === 'EACCES') return failure(context, `not allowed to listen on port ${config.server.port} (ports below 1024 need privileges); use --port`);
      if (error instanceof StartupRefused || error instanceof DataDirError) return failure(context, error.message);
      throw error;
    }
    const providers = config.providers.length;
    context.stdout.write(
      `hermes-router listening on ${running.url}\n` +
        `  dashboard: ${running.url}/dashboard/\n` +
        `  config:    ${source ?? '(none found: defaults)'}\n` +
        `  data dir:  ${dataDir} (ledger: ${config.storage.kind === 'cluster' ? 'Postgres (storage: cluster)' : running.ledger.config.database})\n` +
        `  providers: ${providers === 0 ? 'none — chat requests answer 503 until you add one (see README)' : providers}\n` +
        `  OpenAI base URL:    ${running.url}/v1\n` +
        `  Anthropic base URL: ${running.url}/anthropic\n`,
    );
    if (running.generatedAdminKey) {
      context.stdout.write(
        `\nAdmin key (new): ${running.generatedAdminKey}\n` +
          (running.adminKeyFile ? `  saved to ${running.adminKeyFile} (readable only by you): \`router\`, \`models\` and \`keys\` on this machine read it.\n` : '') +
          '  From another machine, set HERMES_ROUTER_ADMIN_KEY to it.\n',
      );
    }
    const linkMinutes = Math.round(running.security.loginLinks.ttlMs / 60_000);
    context.stdout.write(
      `\nDashboard login link (works once, for ${linkMinutes} minutes): ${running.url}${loginLinkPath}?token=${running.security.loginLinks.issue()}\n` +
        '  A new one: hermes-router dashboard\n',
    );
    // The HTTP client the providers' requests go through, loaded now that the gateway listens (it was ~15 % of
    // the CPU to listen; undici-agent.ts) and before the compile cache is written, so its files are in it.
    if (providers > 0) loadUndici();
    // The code the start compiled, for the next start (compile-cache.ts); before the young generation is handed
    // back, because V8 accepts cached code only under the V8 flags it was made with (compile-cache-handle.ts).
    // Nothing to write when every script came from the cache.
    saveCompileCache();
    // Listening: from here on the young generation grows with request load (start-heap.ts; with the compact
    // settings, up to their limit while many requests run: young-generation-limit.ts).
    releaseYoungGeneration();
    const youngGeneration = compactHeapApplied() ? growYoungGenerationUnderLoad(running.gateway.inFlight, gatewayHeapSettings.youngGeneration) : undefined;
    // What a burst of requests left in the heap goes back to the system once the gateway is quiet (idle-collection.ts).
    const idleCollection = context.env.HERMES_ROUTER_IDLE_COLLECTION === 'off' ? undefined : collectWhenIdle(running.gateway.inFlight);
    // Compile the tool router's classifier while no request waits for it (classify/toolsets/warm-up.ts).
    if (running.gateway.toolRoutingMode !== 'off') setTimeout(warmToolsetClassifier, 0).unref();
    // The start's garbage too, so the first request does not pay the first full collection (idle-collection.ts).
    if (idleCollection !== undefined) collectAfterStart(running.gateway.inFlight);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        context.stdout.write(`\n${signal}: finishing in-flight requests…\n`);
        idleCollection?.stop();
        youngGeneration?.stop();
        void running.close().then(resolve);
      };
      process.on('SIGHUP', () => {
        running.gateway.reloadFromSource().then(
          (reloaded) =>
            context.stdout.write(
              `SIGHUP: config reloaded (${reloaded.providers.length} providers, ${reloaded.models.length} models)${reloaded.restartRequired.length > 0 ? `; restart to apply: ${reloaded.restartRequired.join(', ')}` : ''}\n`,
            ),
          (error: unknown) => context.stderr.write(`SIGHUP: config not reloaded, the running one stays:\n${error instanceof Error ? error.message : String(error)}\n`),
        );
      });
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};
