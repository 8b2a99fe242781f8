import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import { toolRoutingModes } from './config.js';
import type { ToolRoutingMode } from './config.js';

/**
 * Where the run-time mode lived before it joined the policy document. Still read, never written: a gateway whose
 * policy has no mode yet starts in the mode this file names (see `startingRouterMode`).
 */
export const routerModeFileName = 'tool-routing-mode.json';

export function routerModeFilePath(dataDir: string): string {
  return join(dataDir, routerModeFileName);
}

/** The mode in the legacy `tool-routing-mode.json`; undefined when it is absent or unreadable. */
export function readLegacyRouterMode(dataDir: string): ToolRoutingMode | undefined {
  const path = routerModeFilePath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { mode?: unknown };
    return toolRoutingModes.find((mode) => mode === parsed.mode);
  } catch {
    return undefined;
  }
}

/**
 * The mode saved for a single instance's data directory: the policy file's (`model-policy.json`), else the
 * legacy file's; undefined when never switched. A cluster keeps its mode in Postgres instead.
 */
export function readRouterMode(dataDir: string, env: NodeJS.ProcessEnv = {}): ToolRoutingMode | undefined {
  let saved: ToolRoutingMode | undefined;
  try {
    saved = new FilePolicyStore(policyFilePath(dataDir, env)).loadSync().toolRouting?.mode;
  } catch {
    // A corrupt policy file is reported by the gateway at start; here it only means "not saved there".
  }
  return saved ?? readLegacyRouterMode(dataDir);
}
