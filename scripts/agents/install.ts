import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AgentSpec } from './agents.js';

const run = promisify(execFile);

/** Where pinned agent CLIs are installed: outside the repository, reused between runs. */
export function agentsCacheDir(): string {
  return process.env['HERMES_ROUTER_AGENTS_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'hermes-router', 'agents');
}

export function agentBinary(agent: AgentSpec): string {
  return join(agentsCacheDir(), `${agent.name}-${agent.version}`, 'node_modules', '.bin', agent.bin);
}

/**
 * Installs an agent's pinned package (once) and runs its binary-fetching install script by hand. Returns an
 * error text instead of throwing: one agent that cannot be had does not stop the others.
 */
export async function installAgent(agent: AgentSpec): Promise<string | undefined> {
  const directory = join(agentsCacheDir(), `${agent.name}-${agent.version}`);
  const binary = agentBinary(agent);
  try {
    if (!existsSync(binary)) {
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, 'package.json'), JSON.stringify({ private: true }));
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${agent.packageName}@${agent.version}`], { cwd: directory, timeout: 600_000 });
      if (agent.postinstall !== undefined) {
        await run(process.execPath, [agent.postinstall], { cwd: join(directory, 'node_modules', agent.packageName), timeout: 120_000 });
      }
    }
    await run(binary, ['--version'], { timeout: 60_000 });
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `not installable here: ${detail.split('\n')[0]?.slice(0, 200) ?? ''}`;
  }
}
