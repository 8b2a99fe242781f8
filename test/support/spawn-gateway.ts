import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ConfigInput } from '../../src/config/schema.js';

const entry = new URL('../../src/cli/run.ts', import.meta.url).pathname;

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** Runs `hermes-router start` as a real process (through tsx) with a config file written into `dataDir`. */
export async function spawnGateway(dataDir: string, config: ConfigInput, env: NodeJS.ProcessEnv = {}): Promise<GatewayProcess> {
  const configPath = join(dataDir, 'test-config.yaml');
  writeFileSync(configPath, stringify(config));
  const child = spawn(process.execPath, ['--import', 'tsx', entry, 'start', '--config', configPath, '--port', '0', '--data-dir', dataDir], {
    env: { PATH: process.env.PATH, HOME: dataDir, HERMES_ROUTER_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: on a loaded two-core machine a tsx start takes several seconds.
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}) before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}
