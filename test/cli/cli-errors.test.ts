import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingContext } from '../support/cli-context.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-router-cli-errors-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function run(args: string[]) {
  const context = capturingContext({ env: { HOME: home, HERMES_ROUTER_HOME: join(home, 'data') }, cwd: home });
  const code = await main(args, context);
  return { code, out: context.out(), err: context.err() };
}

function file(name: string, text: string): string {
  const path = join(home, name);
  writeFileSync(path, text);
  return path;
}

/** What a person must never see: parser or runtime internals instead of a sentence. */
const internals = /NaN|TypeError|is not a function|Cannot convert|Cannot read|positional argument starting|at .*\.(ts|js):\d+/;

describe('CLI mistakes get a sentence a person can act on', () => {
  it.each([
    [['--rpm', 'abc'], '--rpm wants a whole number above 0, got "abc"'],
    [['--tokens-per-day', '1.5'], '--tokens-per-day wants a whole number above 0, got "1.5"'],
    [['--cost-per-day=-2'], '--cost-per-day wants a number above 0, got "-2"'],
    [['--cost-per-day'], '--cost-per-day needs a value'],
  ])('keys create %j', async (flags, message) => {
    const result = await run(['keys', 'create', '--name', 'agent', ...flags]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).not.toMatch(internals);
  });

  it('an unknown flag names the nearest real one', async () => {
    const result = await run(['keys', 'list', '--jsno']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('unknown option --jsno (did you mean --json?)');
    expect(result.err).not.toMatch(internals);
  });

  const rows = () => file('rows.jsonl', `${JSON.stringify({ id: 'r1', user_turns: ['list files'], classes_per_turn: [['GorillaFileSystem']], first_turn_classes: ['GorillaFileSystem'], involved_classes: ['GorillaFileSystem'] })}\n`);
  const wrongClassFiles: [string, string, string][] = [
    ['an array', '[1, 2]\n', 'not a BFCL class file'],
    ['null', 'null\n', 'not a BFCL class file'],
    ['functions that are strings', '{"GorillaFileSystem": "ls"}\n', 'not a BFCL class file (GorillaFileSystem'],
    ['not JSON', 'ls -l\n', 'not JSON'],
  ];

  it.each(wrongClassFiles)('eval tools and eval sessions name a --bfcl-toolsets file that is %s', async (_, text, message) => {
    const classes = file(`classes-${Math.random().toString(36).slice(2)}.json`, text);
    for (const command of [['eval', 'tools'], ['eval', 'sessions']]) {
      const result = await run([...command, '--bfcl', rows(), '--bfcl-toolsets', classes]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`--bfcl-toolsets ${classes}: ${message}`);
      expect(result.err).not.toMatch(internals);
    }
  });

  it('eval tools names the --bfcl line that is not a row', async () => {
    const classes = file('classes-ok.json', '{"GorillaFileSystem": [{"name": "ls", "description": "list"}]}\n');
    const bad = file('rows-bad.jsonl', `${JSON.stringify({ id: 'r1', user_turns: 'list files' })}\n`);
    const result = await run(['eval', 'tools', '--bfcl', bad, '--bfcl-toolsets', classes]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`--bfcl ${bad}:1: not a BFCL multi-turn row (user_turns`);
    expect(result.err).not.toMatch(internals);
    const missing = await run(['eval', 'tools', '--bfcl', join(home, 'nope.jsonl'), '--bfcl-toolsets', classes]);
    expect(missing.err).toContain('no such file');
  });

  it('keys list has a header row', async () => {
    expect((await run(['keys', 'create', '--name', 'agent', '--rpm', '30'])).code).toBe(0);
    const result = await run(['keys', 'list']);
    const [header, rule, row] = result.out.split('\n');
    expect(header).toMatch(/^Id\s+Status\s+Ends in\s+Name\s+Scopes\s+Limits$/);
    expect(rule).toMatch(/^─+/);
    expect(row).toMatch(/active\s+\S+\s+agent\s+chat\S*\s+30\/min/);
  });
});
