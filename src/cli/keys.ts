import { AdminKey } from '../security/admin-key.js';
import { type Column, renderTable, tableStyle } from './report-table.js';
import { writeAdminKeyFile } from '../security/admin-key-file.js';
import { createApplicationKey } from '../security/create-key.js';
import { publicKeyView } from '../store/keys/key-record.js';
import type { ApplicationKey } from '../store/keys/key-record.js';
import { newKeyRequestSchema } from '../security/key-request.js';
import type { KeyStore } from '../store/keys/key-store.js';
import { openConfiguredKeyStore } from '../pipeline/stores/open-key-store.js';
import type { Command, CommandContext } from './command.js';
import { setupModelsCommand } from './models-setup.js';
import type { ModelsCommandSetup } from './models-setup.js';

const common = '[--config FILE] [--data-dir DIR] [--json]';
const usages = {
  create:
    `Usage: hermes-router keys create --name NAME [--scopes chat,embeddings,models:read,admin] [--rpm N] [--tokens-per-day N]\n` +
    `       [--cost-per-day USD] [--models a,b] [--providers p,q] ${common}\n` +
    'Prints the new key once; only its hash is stored. A running gateway uses it on its next request.\n',
  list: `Usage: hermes-router keys list ${common}\n`,
  revoke: `Usage: hermes-router keys revoke <id> ${common}\n`,
  'admin-reset': `Usage: hermes-router keys admin-reset ${common}\nGenerates a new admin key, prints it once, stores its hash (the old one stops working).\n`,
};

/**
 * Runs a command on the keys the gateway uses: its key file (config `auth.key_file`, else `keys.json` in the
 * data dir), or with `storage: {kind: cluster}` the cluster's Postgres store. Errors are printed, exit code 1.
 */
async function withKeyStore(setup: ModelsCommandSetup, context: CommandContext, work: (store: KeyStore) => Promise<number> | number): Promise<number> {
  return withErrors(context, async () => {
    const opened = await openConfiguredKeyStore({
      storage: setup.config.storage,
      dataDir: setup.dataDir,
      ...(setup.config.auth.key_file ? { keyFile: setup.config.auth.key_file } : {}),
      env: context.env,
    });
    try {
      return await work(opened.store);
    } finally {
      await opened.close();
    }
  });
}

function finish(context: CommandContext, json: boolean, text: string, result: object): number {
  context.stdout.write(json ? `${JSON.stringify(result)}\n` : text);
  return 0;
}

function list(value: unknown): string[] | undefined {
  return typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : undefined;
}

/** A limit flag's number; a word or a negative is named with the flag ("--rpm wants …"), never "received NaN". */
function number(value: unknown, flag: string, whole: boolean): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0 || (whole && !Number.isInteger(parsed))) {
    throw new LimitFlagError(`${flag} wants ${whole ? 'a whole number' : 'a number'} above 0, got "${value}"`);
  }
  return parsed;
}

class LimitFlagError extends Error {}

function describeLimits(key: ApplicationKey): string {
  const limits = key.limits;
  const parts = [
    limits.requests_per_minute === undefined ? undefined : `${limits.requests_per_minute}/min`,
    limits.tokens_per_day === undefined ? undefined : `${limits.tokens_per_day} tokens/day`,
    limits.cost_per_day_usd === undefined ? undefined : `$${limits.cost_per_day_usd}/day`,
    limits.providers === undefined ? undefined : `providers ${limits.providers.join(',')}`,
    limits.models === undefined ? undefined : `models ${limits.models.join(',')}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'no limits' : parts.join(', ');
}

async function withErrors(context: CommandContext, work: () => Promise<number> | number): Promise<number> {
  try {
    return await work();
  } catch (error) {
    context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

export const keysCreateCommand: Command = {
  name: 'keys create',
  summary: 'Create an application key (shown once) with scopes and limits',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usages.create, {
      name: { type: 'string' },
      scopes: { type: 'string' },
      rpm: { type: 'string' },
      'tokens-per-day': { type: 'string' },
      'cost-per-day': { type: 'string' },
      models: { type: 'string' },
      providers: { type: 'string' },
    });
    if (typeof setup === 'number') return setup;
    const values = setup.values;
    let numbers;
    try {
      numbers = {
        requests_per_minute: number(values.rpm, '--rpm', true),
        tokens_per_day: number(values['tokens-per-day'], '--tokens-per-day', true),
        cost_per_day_usd: number(values['cost-per-day'], '--cost-per-day', false),
      };
    } catch (error) {
      if (!(error instanceof LimitFlagError)) throw error;
      context.stderr.write(`${error.message}\n\n${usages.create}`);
      return 2;
    }
    const limits = Object.fromEntries(
      Object.entries({
        ...numbers,
        models: list(values.models),
        providers: list(values.providers),
      }).filter(([, value]) => value !== undefined),
    );
    const parsed = newKeyRequestSchema.safeParse({ name: values.name, ...(values.scopes === undefined ? {} : { scopes: list(values.scopes) }), limits });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      context.stderr.write(`${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}\n` : ''}${usages.create}`);
      return 2;
    }
    return withKeyStore(setup, context, async (store) => {
      const { key, secret } = await createApplicationKey(store, parsed.data);
      return finish(
        context,
        setup.json,
        `Created key ${key.id} (${key.name}): ${key.scopes.join(', ')}; ${describeLimits(key)}\n\n  ${secret}\n\nThis is the only time it is shown; store it now.\n`,
        { ...publicKeyView(key), key: secret },
      );
    });
  },
};

export const keysListCommand: Command = {
  name: 'keys list',
  summary: 'List application keys (id, name, last 4 characters, scopes, limits)',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usages.list);
    if (typeof setup === 'number') return setup;
    return withKeyStore(setup, context, (store) => {
      const keys = store.list();
      const columns: Column<ApplicationKey>[] = [
        { header: 'Id', cell: (key) => key.id },
        { header: 'Status', cell: (key) => (key.revoked_at ? 'revoked' : 'active') },
        { header: 'Ends in', cell: (key) => key.hint },
        { header: 'Name', cell: (key) => key.name },
        { header: 'Scopes', cell: (key) => key.scopes.join(',') },
        { header: 'Limits', cell: (key) => describeLimits(key) },
      ];
      const table = renderTable(columns, keys, undefined, tableStyle(context.stdout, context.env));
      const admin = new AdminKey(store, context.env).source;
      const text = `${keys.length === 0 ? 'No application keys: on loopback, chat needs no key.\n' : table}\nadmin key: ${admin}\n`;
      return finish(context, setup.json, text, { keys: keys.map(publicKeyView), admin_key: admin, key_file: store.location });
    });
  },
};

export const keysRevokeCommand: Command = {
  name: 'keys revoke',
  summary: 'Revoke an application key by id (takes effect on the next request)',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usages.revoke);
    if (typeof setup === 'number') return setup;
    const id = setup.positionals[0];
    if (!id) {
      context.stderr.write(usages.revoke);
      return 2;
    }
    return withKeyStore(setup, context, async (store) => {
      if (!(await store.revoke(id, new Date()))) {
        context.stderr.write(`No active key with id ${id} (see "hermes-router keys list").\n`);
        return 1;
      }
      return finish(context, setup.json, `Revoked key ${id}.\n`, { id, revoked: true });
    });
  },
};

export const keysAdminResetCommand: Command = {
  name: 'keys admin-reset',
  summary: 'Generate a new admin key (shown once; replaces the stored one)',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usages['admin-reset']);
    if (typeof setup === 'number') return setup;
    return withKeyStore(setup, context, async (store) => {
      const adminKey = new AdminKey(store, context.env);
      const secret = await adminKey.generate();
      const shadowed = adminKey.source === 'env' ? '\nHERMES_ROUTER_ADMIN_KEY is set and wins over this key while it is set.\n' : '';
      // One instance: saved for the CLI on this machine as the gateway's first start does. A cluster's instances
      // share the key through Postgres and may run elsewhere, so nothing is written locally.
      const keyFile = setup.config.storage.kind === 'cluster' ? undefined : writeAdminKeyFile(setup.dataDir, secret);
      const saved = keyFile ? `Saved to ${keyFile} (readable only by you); the CLI on this machine reads it.\n` : '';
      return finish(context, setup.json, `New admin key:\n\n  ${secret}\n\n${saved}${shadowed}`, {
        admin_key: secret,
        source: adminKey.source,
        ...(keyFile ? { key_file: keyFile } : {}),
      });
    });
  },
};
