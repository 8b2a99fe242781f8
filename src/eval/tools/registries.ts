import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../classify/toolsets/model-file.js';
import { isJsonObject } from '../../core/json.js';

/**
 * The registry a case names: `tools.<registry>.json` in --registries, by default the shared Hermes fixtures
 * next to the repository when present, else the copy shipped in data/tool-routing/registries.
 */
export function defaultRegistriesDirectory(): string {
  const root = packageRoot();
  const shared = resolve(root, '../shared/fixtures/hermes');
  return existsSync(join(shared, 'tools.cli.json')) ? shared : join(root, 'data/tool-routing/registries');
}

const loaded = new Map<string, unknown[]>();

/**
 * The tools array a client would send. The fixtures carry an extra `toolset` field that no agent sends on the
 * wire, so it is removed: the router must find ownership from names, and token counts are of the real bytes.
 */
export function loadRegistryTools(directory: string, registry: string): unknown[] {
  const path = join(directory, `tools.${registry}.json`);
  const cached = loaded.get(path);
  if (cached) return cached;
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${path} is not a JSON array of tools`);
  const tools = parsed.map((tool) => {
    if (!isJsonObject(tool)) return tool;
    const { toolset: _ignored, ...rest } = tool;
    return rest;
  });
  loaded.set(path, tools);
  return tools;
}
