import { terminalSafeStream } from './terminal-safe.js';
import type { CommandContext } from './command.js';
import { commandLoaders } from './commands.js';
import { packageVersion } from './version.js';

/** The first word of each multi-word command (`report`, `keys`, …): typed alone, it lists its commands. */
function groupOf(name: string): string | undefined {
  const space = name.indexOf(' ');
  return space === -1 ? undefined : name.slice(0, space);
}

function commandLines(names: string[]): string[] {
  const width = Math.max(...names.map((name) => name.length), 0);
  return names.map((name) => `  hermes-router ${name.padEnd(width)}  ${commandLoaders[name]?.summary ?? ''}`);
}

function usage(): string {
  const names = Object.keys(commandLoaders).sort();
  return [
    'Usage: hermes-router <command> [options]',
    '',
    'Commands:',
    ...commandLines(names),
    '',
    'Each command answers --help. `hermes-router --version` prints the version.',
    '',
  ].join('\n');
}

function groupUsage(group: string): string {
  const names = Object.keys(commandLoaders)
    .filter((name) => groupOf(name) === group)
    .sort();
  return [`Usage: hermes-router ${group} <command> [options]`, '', 'Commands:', ...commandLines(names), '', 'Each command answers --help.', ''].join('\n');
}

function isGroup(word: string | undefined): word is string {
  return word !== undefined && Object.keys(commandLoaders).some((name) => groupOf(name) === word);
}

/** Finds the command whose (possibly multi-word) name is the longest prefix of `args`. */
function findCommand(args: string[]): { name: string; rest: string[] } | undefined {
  for (let length = Math.min(args.length, 3); length > 0; length -= 1) {
    const name = args.slice(0, length).join(' ');
    if (name in commandLoaders) return { name, rest: args.slice(length) };
  }
  return undefined;
}

const helpWords = new Set(['--help', '-h', 'help']);

export async function main(args: string[], context?: Partial<CommandContext>): Promise<number> {
  // Ledger fields are client-controlled: no command may print a raw control character (terminal-safe.ts).
  const fullContext: CommandContext = {
    stdout: terminalSafeStream(context?.stdout ?? process.stdout),
    stderr: terminalSafeStream(context?.stderr ?? process.stderr),
    env: context?.env ?? process.env,
    cwd: context?.cwd ?? process.cwd(),
  };
  const [first, second] = args;
  if (first === '--version' || first === '-v' || first === 'version') {
    fullContext.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (first === undefined) {
    fullContext.stdout.write(usage());
    return 0;
  }
  if (helpWords.has(first)) {
    // `help report` lists the report commands; `help report daily` is `report daily --help`.
    if (second === undefined) {
      fullContext.stdout.write(usage());
      return 0;
    }
    return main([...args.slice(1), '--help'], fullContext);
  }
  const found = findCommand(args);
  const loader = found ? commandLoaders[found.name] : undefined;
  if (!found || !loader) {
    if (isGroup(first) && (second === undefined || helpWords.has(second))) {
      fullContext.stdout.write(groupUsage(first));
      return 0;
    }
    const hint = isGroup(first) ? groupUsage(first) : usage();
    fullContext.stderr.write(`Unknown command: hermes-router ${args.join(' ')}\n\n${hint}`);
    return 1;
  }
  const command = await loader.load();
  return command.run(found.rest, fullContext);
}
