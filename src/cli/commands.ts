import type { Command } from './command.js';

/**
 * Every CLI command, one line each. Commands are loaded lazily so `hermes-router start` does not pay for the
 * evaluation harnesses or report code.
 */
export const commandLoaders: Record<string, { summary: string; load: () => Promise<Command> }> = {
};
