import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { terminalSafe } from '../../src/cli/terminal-safe.js';
import { capturingContext } from '../support/cli-context.js';
import { ledgerFile, pricedModelsConfig, record } from '../insight/insight-fixture.js';

/**
 * Client-controlled fields (session id, `user`, requested model, titles) end up in the ledger and from there in
 * CLI reports. Printed raw, an escape sequence in them clears the operator's screen, retitles the terminal,
 * writes the clipboard (OSC 52) or hides text. Every CLI output now escapes control characters.
 */
const clearScreen = '\u001b[2J\u001b[H';
const setTitle = '\u001b]0;pwned\u0007';
const clipboard = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const csiC1 = '\u009b31m';
const hostileSession = `s${clearScreen}${setTitle}`;
const hostileModel = `m${clipboard}${csiC1}\u202e`;

let flags: string[];
beforeAll(async () => {
  const now = Date.now();
  const path = await ledgerFile([
    record({ id: 'r1', at: now - 2_000, session: hostileSession, requested: hostileModel, served: 'cheap', input: 1_000, output: 50, full: 800, sent: 100 }),
    record({ id: 'r2', at: now - 1_000, session: hostileSession, requested: hostileModel, served: 'cheap', input: 1_200, output: 50, full: 800, sent: 100, status: 502, attempts: 2 }),
  ]);
  const configPath = join(mkdtempSync(join(tmpdir(), 'terminal-config-')), 'hermes-router.yaml');
  writeFileSync(configPath, pricedModelsConfig);
  flags = ['--data-dir', dirname(path), '--config', configPath];
});

/** Any control character a terminal acts on, other than newline and tab. */
const controlCharacter = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function runCli(args: string[], tty: boolean): Promise<string> {
  const context = capturingContext({ env: tty ? {} : { NO_COLOR: '1' }, cwd: tmpdir() });
  if (tty) Object.assign(context.stdout, { isTTY: true });
  const code = await main(args, context);
  expect(code).toBe(0);
  return context.out();
}

describe('CLI output escapes control characters', () => {
  it.each([['report', 'sessions'], ['report', 'requests'], ['report', 'quality'], ['report', 'models'], ['report', 'daily'], ['summary']])(
    '%s %s prints no raw control character',
    async (...command) => {
      const text = await runCli([...command, ...flags], false);
      expect(text).not.toMatch(controlCharacter);
    },
  );

  it('report sessions shows the hostile id escaped, readable', async () => {
    const text = await runCli(['report', 'sessions', ...flags], false);
    expect(text).toContain('s\\u001b[2J');
  });

  it('on a terminal, the table keeps its own colours and nothing else', async () => {
    const text = await runCli(['report', 'requests', ...flags], true);
    const withoutOwnColours = text.replace(/\u001b\[\d+m/g, '');
    expect(text).toMatch(/\u001b\[\d+m/);
    expect(withoutOwnColours).not.toMatch(controlCharacter);
    expect(text).not.toContain(clearScreen);
  });

  it('--json stays valid JSON and carries the values with their control characters escaped', async () => {
    const text = await runCli(['report', 'requests', '--json', ...flags], false);
    expect(text).not.toMatch(controlCharacter);
    const parsed = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { items: { requestedModel: string; sessionId: string }[] };
    expect(parsed.items.map((row) => row.requestedModel)).toContain(hostileModel);
    expect(parsed.items.map((row) => row.sessionId)).toContain(hostileSession);
  });

  it('terminalSafe escapes C0, DEL, C1 and bidi overrides and leaves text alone', () => {
    expect(terminalSafe('plain text, ünïcödé ✓')).toBe('plain text, ünïcödé ✓');
    expect(terminalSafe(`a${clearScreen}b\u007f\u009b\u202e`)).toBe('a\\u001b[2J\\u001b[Hb\\u007f\\u009b\\u202e');
    expect(terminalSafe('line\nnext\ttab')).toBe('line\\u000anext\\u0009tab');
  });
});
