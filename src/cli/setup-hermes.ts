import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planHermesSetup } from '../insight/hermes-setup.js';
import { hermesHome } from '../insight/hermes-state.js';
import { parseFlags } from './arguments.js';
import type { Command } from './command.js';
import { commandConfig } from './command-config.js';

const usage = `Usage: hermes-router setup hermes [options]

Adds this gateway to Hermes Agent's config.yaml as a custom provider (a backup is kept; running it again
changes nothing), prints the change, and checks that the gateway answers.

Options:
  --hermes-home DIR   Hermes's home (default: $HERMES_HOME, insight.hermes_home, else ~/.hermes)
  --dry-run           print the change, write nothing
  --make-default      make the gateway Hermes's default model instead: sets model.provider, base_url, default
                      and api_key in place (the previous provider's key is replaced, nothing else changes)
  --api-key KEY       the gateway application key for model.api_key (when the gateway requires keys)
  --anthropic         have Hermes speak the Anthropic Messages API to the gateway (base URL …/anthropic)
  --model NAME        the model Hermes asks for (default: hermes-router, the gateway's alias)
  --key-env NAME      environment variable holding a gateway application key (default: a placeholder key)
  --url URL           the gateway's address (default: from the gateway config, http://127.0.0.1:8319)
  --config FILE       gateway config
  --json              one JSON object on stdout
`;

/** `hermes-router setup hermes`. */
export const setupHermesCommand: Command = {
  name: 'setup hermes',
  summary: "Add the gateway to Hermes Agent's config.yaml as a custom provider (backup, idempotent, diff)",
  async run(args, context) {
    let values;
    try {
      values = parseFlags(args, {
        'hermes-home': { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        'make-default': { type: 'boolean', default: false },
        anthropic: { type: 'boolean', default: false },
        model: { type: 'string' },
        'key-env': { type: 'string' },
        'api-key': { type: 'string' },
        url: { type: 'string' },
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      }).values;
    } catch (error) {
      context.stderr.write(`setup hermes: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
      return 2;
    }
    if (values.help) {
      context.stdout.write(usage);
      return 0;
    }
    const loaded = commandConfig('setup hermes', { config: values.config, dataDir: values['data-dir'] }, context);
    if (typeof loaded === 'number') return loaded;
    const { config } = loaded;
    const host = ['0.0.0.0', '::'].includes(config.server.host) ? '127.0.0.1' : config.server.host;
    const gatewayUrl = (values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`).replace(/\/+$/, '');
    const baseUrl = `${gatewayUrl}${values.anthropic ? '/anthropic' : '/v1'}`;
    const home = hermesHome({ flag: values['hermes-home'] === undefined ? undefined : resolve(context.cwd, values['hermes-home']), configured: config.insight.hermes_home, env: context.env });
    const configPath = join(home, 'config.yaml');
    const existing = existsSync(configPath) ? readFileSync(configPath, 'utf8') : '';
    let plan;
    try {
      // model.api_key: the application key given (or the one in --key-env), else a placeholder.
      const apiKey = values['api-key'] ?? (values['key-env'] ? context.env[values['key-env']] : undefined);
      plan = planHermesSetup(existing, {
        baseUrl,
        model: values.model ?? 'hermes-router',
        keyEnv: values['key-env'],
        makeDefault: values['make-default'] === true,
        apiKey,
      });
    } catch (error) {
      context.stderr.write(`setup hermes: ${configPath}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    let backup: string | undefined;
    if (plan.changed && !values['dry-run']) {
      mkdirSync(home, { recursive: true });
      if (existing !== '') {
        backup = `${configPath}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        copyFileSync(configPath, backup);
      }
      writeFileSync(configPath, plan.text);
    }
    // The check: the gateway answers /health, and lists the model Hermes will ask for.
    let reachable = false;
    let detail = '';
    try {
      const health = await fetch(`${gatewayUrl}/health`, { signal: AbortSignal.timeout(3_000) });
      reachable = health.ok;
      detail = reachable ? 'the gateway answers /health' : `/health answered ${health.status}`;
    } catch (error) {
      detail = `no answer from ${gatewayUrl} (${error instanceof Error ? error.message : String(error)}); start it with "hermes-router start"`;
    }
    const result = { command: 'setup hermes', configPath, baseUrl, changed: plan.changed, dryRun: values['dry-run'] === true, backup: backup ?? null, diff: plan.diff, reachable, detail };
    if (values.json) {
      context.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    const lines = [
      plan.changed
        ? `${result.dryRun ? 'Would change' : 'Changed'} ${configPath}${backup ? ` (backup: ${backup})` : ''}:`
        : `${configPath} already points Hermes at ${baseUrl}; nothing to change.`,
      ...plan.diff.map((line) => `  ${line}`),
      `Connection: ${reachable ? 'ok' : 'FAILED'}, ${detail}.`,
    ];
    if (!values['make-default']) lines.push(`Select it in Hermes with the custom provider "hermes-router" (or run again with --make-default).`);
    context.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};
