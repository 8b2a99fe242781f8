import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** Thin wrapper so every command parses flags the same way and reports mistakes the same way. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  return parseArgs({ args, options, allowPositionals: true, strict: true });
}

export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a number from 0 to 65535, got "${value}"`);
  return port;
}
