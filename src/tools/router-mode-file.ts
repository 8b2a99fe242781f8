import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../store/policy/atomic-write.js';
import { toolRoutingModes } from './config.js';
import type { ToolRoutingMode } from './config.js';

export const routerModeFileName = 'tool-routing-mode.json';

export function routerModeFilePath(dataDir: string): string {
  return join(dataDir, routerModeFileName);
}

/**
 * The tool routing mode chosen at run time (`router on|off|shadow`), kept across restarts. It wins over
 * `tool_routing.mode` in the config, which is only the starting value; undefined when never switched.
 */
export function readRouterMode(dataDir: string): ToolRoutingMode | undefined {
  const path = routerModeFilePath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { mode?: unknown };
    return toolRoutingModes.find((mode) => mode === parsed.mode);
  } catch {
    return undefined;
  }
}

export function writeRouterMode(dataDir: string, mode: ToolRoutingMode): void {
  const path = routerModeFilePath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify({ mode, updated_at: new Date().toISOString() }, null, 2)}\n`);
}
