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

type FlagOptions = NonNullable<ParseArgsConfig['options']> & { help: { type: 'boolean'; default: false } };
type FlagValues<T extends FlagOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true }>>['values'];

/**
 * A command's flags, or the exit code once the command has answered by itself: 0 after printing `usage` for
 * `--help`, 2 after printing the mistake and `usage`. Positional arguments are an error unless `allowPositionals`.
 */
export function flagsOrExit<T extends FlagOptions>(
  args: string[],
  options: T,
  usage: string,
  output: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  allowPositionals = false,
): FlagValues<T> | number {
  let values: FlagValues<T>;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals }).values as FlagValues<T>;
  } catch (error) {
    output.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if ((values as { help?: boolean }).help) {
    output.stdout.write(usage);
    return 0;
  }
  return values;
}
