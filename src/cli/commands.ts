import type { Command } from './command.js';

/**
 * Every CLI command, one line each. Commands are loaded lazily so `hermes-router start` does not pay for the
 * evaluation harnesses or report code.
 */
export const commandLoaders: Record<string, { summary: string; load: () => Promise<Command> }> = {
  start: { summary: 'Run the gateway (default 127.0.0.1:8319)', load: async () => (await import('./start.js')).startCommand },
  doctor: { summary: 'Check config, providers, port and data directory', load: async () => (await import('./doctor.js')).doctorCommand },
  'eval tools': { summary: 'Measure first-turn tool routing on labelled cases', load: async () => (await import('./eval-tools.js')).evalToolsCommand },
};
