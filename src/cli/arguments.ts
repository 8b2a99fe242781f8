import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The closest known flag to a mistyped one (a shared prefix, or one typo), for "did you mean". */
function closestFlag(typed: string, options: Options): string | undefined {
  const bare = typed.replace(/^-+/, '').split('=')[0] ?? '';
  const names = Object.keys(options);
  const distance = (left: string, right: string): number => {
    const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
    for (let row = 1; row <= left.length; row += 1) {
      let diagonal = previous[0]!;
      previous[0] = row;
      for (let column = 1; column <= right.length; column += 1) {
        const above = previous[column]!;
        previous[column] = Math.min(above + 1, previous[column - 1]! + 1, diagonal + (left[row - 1] === right[column - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return previous[right.length]!;
  };
  return names.find((name) => bare.length >= 2 && name.startsWith(bare)) ?? names.find((name) => distance(name, bare) <= 2);
}

/**
 * Node's parseArgs explains mistakes in its own terms ("To specify a positional argument starting with a '-'…");
 * a person wants the flag, what is wrong with it, and where to look.
 */
function readableParseError(error: unknown, options: Options): Error {
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^' <]+)/.exec(text)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const suggestion = closestFlag(flag, options);
    return new Error(`unknown option ${flag}${suggestion ? ` (did you mean --${suggestion}?)` : ''}; see --help`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    const takesValue = options[flag.replace(/^-+/, '')]?.type === 'string';
    return new Error(takesValue ? `${flag} needs a value` : `${flag} takes no value`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']*)'/.exec(text)?.[1];
    return new Error(`unexpected argument${argument ? ` "${argument}"` : ''}; see --help`);
  }
  return error instanceof Error ? error : new Error(text);
}

/** Thin wrapper so every command parses flags the same way and reports mistakes the same way. */
export function parseFlags<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw readableParseError(error, options);
  }
}

export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a number from 0 to 65535, got "${value}"`);
  return port;
}

type FlagOptions = Options & { help: { type: 'boolean'; default: false } };
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
    output.stderr.write(`${readableParseError(error, options).message}\n\n${usage}`);
    return 2;
  }
  if ((values as { help?: boolean }).help) {
    output.stdout.write(usage);
    return 0;
  }
  return values;
}
