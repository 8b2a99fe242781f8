import type { CommandContext } from './command.js';
import { commandLoaders } from './commands.js';

function usage(): string {
  const names = Object.keys(commandLoaders).sort();
  const width = Math.max(...names.map((name) => name.length), 0);
  const lines = names.map((name) => `  ${name.padEnd(width)}  ${commandLoaders[name]?.summary ?? ''}`);
  return ['Usage: hermes-router <command> [options]', '', 'Commands:', ...lines, ''].join('\n');
}

/** Finds the command whose (possibly multi-word) name is the longest prefix of `args`. */
function findCommand(args: string[]): { name: string; rest: string[] } | undefined {
  for (let length = Math.min(args.length, 3); length > 0; length -= 1) {
    const name = args.slice(0, length).join(' ');
    if (name in commandLoaders) return { name, rest: args.slice(length) };
  }
  return undefined;
}

export async function main(args: string[], context?: Partial<CommandContext>): Promise<number> {
  const fullContext: CommandContext = {
    stdout: context?.stdout ?? process.stdout,
    stderr: context?.stderr ?? process.stderr,
    env: context?.env ?? process.env,
    cwd: context?.cwd ?? process.cwd(),
  };
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    fullContext.stdout.write(usage());
    return args.length === 0 ? 1 : 0;
  }
  const found = findCommand(args);
  const loader = found ? commandLoaders[found.name] : undefined;
  if (!found || !loader) {
    fullContext.stderr.write(`Unknown command: ${args.join(' ')}\n\n${usage()}`);
    return 1;
  }
  const command = await loader.load();
  return command.run(found.rest, fullContext);
}
