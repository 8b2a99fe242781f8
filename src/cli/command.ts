/** What a command may touch; the library never prints, commands do, through these streams. */
export interface CommandContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * One CLI command. `name` may hold several words (`eval tools`, `report daily`): the dispatcher picks the
 * command whose name is the longest prefix of the arguments and passes it the rest.
 */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Resolves to the process exit code. */
  run(args: string[], context: CommandContext): Promise<number>;
}
