import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingContext } from '../support/cli-context.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-router-start-errors-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function start(args: string[]) {
  const context = capturingContext({ env: { HOME: home }, cwd: home });
  const code = await main(['start', ...args], context);
  return { code, out: context.out(), err: context.err() };
}

describe('hermes-router start explains what stops it', () => {
  it('a port in use names the process holding it and suggests --port', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const result = await start(['--port', String(port), '--data-dir', join(home, 'data-port')]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`127.0.0.1:${port} is in use`);
      expect(result.err).toContain(`--port ${port + 1}`);
      if (process.platform === 'linux') expect(result.err).toContain(`pid ${process.pid}`);
      expect(result.err).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('a data directory that is a file is one sentence, not a stack', async () => {
    const file = join(home, 'not-a-dir');
    writeFileSync(file, 'x');
    const result = await start(['--port', '0', '--data-dir', file]);
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toBe(`hermes-router start: data directory ${file} is a file, not a directory; choose another with --data-dir or HERMES_ROUTER_HOME\n`);
  });

  it.runIf(process.platform === 'linux')('--data-dir /proc/x answers at once (Node’s recursive mkdir loops there forever)', async () => {
    const result = await start(['--port', '0', '--data-dir', '/proc/hermes-router-x']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('cannot create data directory /proc/hermes-router-x');
  });

  it('bad options get a sentence and the usage, not parser internals', async () => {
    const typo = await start(['--prot', '80']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('unknown option --prot (did you mean --port?)');
    expect(typo.err).not.toContain('positional argument');
    const missing = await start(['--port']);
    expect(missing.err).toContain('--port needs a value');
    const badPort = await start(['--port', 'eighty', '--data-dir', join(home, 'data-bad')]);
    expect(badPort).toMatchObject({ code: 1 });
    expect(badPort.err).toContain('--port must be a number from 0 to 65535, got "eighty"');
  });
});
