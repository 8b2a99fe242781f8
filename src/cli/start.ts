import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load.js';
import { resolveDataDir } from '../config/paths.js';
import { runConfiguredGateway } from '../server/run-configured-gateway.js';
import { parseFlags, parsePort } from './arguments.js';
import type { Command } from './command.js';

export const startCommand: Command = {
  name: 'start',
  summary: 'Run the gateway (default 127.0.0.1:8319)',
  async run(args, context) {
    let flags;
    try {
      flags = parseFlags(args, {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean' },
      }).values;
    } catch (error) {
      context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    if (flags.help) {
      context.stdout.write('Usage: hermes-router start [--config FILE] [--port N] [--host H] [--data-dir DIR]\n');
      return 0;
    }
    const dataDir = resolveDataDir({ flag: flags['data-dir'], env: context.env });
    let loaded;
    try {
      loaded = loadConfig({
        configPath: flags.config ?? context.env.HERMES_ROUTER_CONFIG,
        cwd: context.cwd,
        dataDir,
        env: context.env,
        overrides: { host: flags.host, port: parsePort(flags.port) },
      });
    } catch (error) {
      context.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
      return 1;
    }
    const { config, source } = loaded;
    const running = await runConfiguredGateway({ config, dataDir, env: context.env });
    const providers = config.providers.length;
    context.stdout.write(
      `hermes-router listening on ${running.url}\n` +
        `  config:    ${source ?? '(none found: defaults)'}\n` +
        `  data dir:  ${dataDir} (ledger: ${config.storage.kind === 'cluster' ? 'Postgres (storage: cluster)' : running.ledger.config.database})\n` +
        `  providers: ${providers === 0 ? 'none — chat requests answer 503 until you add one (see README)' : providers}\n` +
        `  OpenAI base URL:    ${running.url}/v1\n` +
        `  Anthropic base URL: ${running.url}/anthropic\n`,
    );
    if (running.generatedAdminKey) {
      context.stdout.write(
        `\nAdmin key (shown once; only its hash is stored): ${running.generatedAdminKey}\n` +
          'Use it as HERMES_ROUTER_ADMIN_KEY for the admin API, the dashboard login and `router`/`models`/`keys` commands.\n',
      );
    }
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        context.stdout.write(`\n${signal}: finishing in-flight requests…\n`);
        void running.close().then(resolve);
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};
