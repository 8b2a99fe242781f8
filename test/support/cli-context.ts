import { PassThrough } from 'node:stream';
import type { CommandContext } from '../../src/cli/command.js';

/** A CLI command's context whose stdout and stderr are collected as text, for tests that run commands in-process. */
export function capturingContext(options: { env?: NodeJS.ProcessEnv; cwd: string }): CommandContext & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { stdout, stderr, env: options.env ?? {}, cwd: options.cwd, out: () => out, err: () => err };
}
