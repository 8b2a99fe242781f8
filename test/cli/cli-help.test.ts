import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandLoaders } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { capturingContext } from '../support/cli-context.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-router-help-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function run(args: string[]) {
  const context = capturingContext({ env: { HOME: home, HERMES_ROUTER_HOME: join(home, 'data') }, cwd: home });
  const code = await main(args, context);
  return { code, out: context.out(), err: context.err() };
}

describe('the command line answers a newcomer', () => {
  it('--version prints the package version', async () => {
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-v', 'version']) {
      const result = await run([flag]);
      expect(result).toMatchObject({ code: 0, out: `${version}\n` });
    }
  });

  it('help and no arguments list every command, exit 0', async () => {
    for (const args of [['help'], ['--help'], []]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      for (const name of Object.keys(commandLoaders)) expect(result.out).toContain(`hermes-router ${name}`);
    }
  });

  it.each(['report', 'router', 'models', 'keys', 'eval'])('bare `%s` lists its commands instead of "Unknown command"', async (group) => {
    const result = await run([group]);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(result.out).toContain(`Usage: hermes-router ${group} <command>`);
    const members = Object.keys(commandLoaders).filter((name) => name.startsWith(`${group} `));
    expect(members.length).toBeGreaterThan(1);
    for (const name of members) expect(result.out).toContain(`hermes-router ${name}`);
    expect((await run(['help', group])).out).toBe(result.out);
  });

  it('an unknown subcommand of a group names it and lists the group, exit 1', async () => {
    const result = await run(['report', 'weekly']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('Unknown command: hermes-router report weekly');
    expect(result.err).toContain('hermes-router report daily');
  });

  it.each(Object.keys(commandLoaders))('`%s --help` prints its usage and exits 0', async (name) => {
    const result = await run([...name.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/usage/i);
  });
});
