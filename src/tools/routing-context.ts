import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { ToolView } from '../core/turn.js';
import type { DescribedToolset, DescriptionProfile } from '../classify/toolsets/description-matcher.js';
import { buildDescriptionProfile } from '../classify/toolsets/description-matcher.js';
import type { ToolIndex } from '../classify/toolsets/tool-ranker.js';
import { buildToolIndex } from '../classify/toolsets/tool-ranker.js';
import { loadWordVectors } from '../classify/toolsets/word-vectors.js';
import { loadWordClusters } from '../classify/toolsets/word-clusters.js';
import { isJsonObject } from '../core/json.js';
import { requestToolsetName } from './catalog.js';
import type { ToolRoutingConfig } from './config.js';
import { buildRequestToolsetTool } from './request-toolset.js';
import { readToolViews } from './tool-shape.js';
import type { ToolsetRegistry } from './toolsets/registry.js';
import { buildToolsetRegistry } from './toolsets/registry.js';

/**
 * Everything derived from one client tools array: views, ownership, the `request_toolset` tool and the
 * description profile. Agents send the same array on every request, so it is built once and cached by a hash
 * of the names and description lengths (and the config parts that matter); the cached `request_toolset` object is what makes the
 * catalog byte-identical from turn to turn.
 */
export interface ToolRoutingContext {
  format: ApiFormat;
  tools: readonly unknown[];
  views: ToolView[];
  registry: ToolsetRegistry;
  requestToolset: JsonObject;
  described: DescribedToolset[];
  profile: DescriptionProfile;
  /** Estimated schema tokens of each Hermes-named toolset's tools (JSON characters / 4.5, the o200k ratio on Hermes's schemas). */
  toolsetTokens: ReadonlyMap<string, number>;
  /** Estimated schema tokens of each tool (by view index), of the whole array, and of the request_toolset tool. */
  toolTokens: readonly number[];
  totalTokens: number;
  requestToolsetTokens: number;
  /**
   * Per-tool mode: the toolsets of one tool (`tool` source), in registry order, and their BM25 index; the toolsets a
   * map does know (`mapped`, decided by the toolset classifier) and their description profile, once per tools array.
   */
  perTool?: { toolsets: string[]; index: ToolIndex; mapped: DescribedToolset[]; mappedProfile: DescriptionProfile };
}

export type ContextProblem = 'unreadable_tools' | 'name_conflict';

const cacheLimit = 64;
/** Characters of serialised tool schema per o200k token (4.5 on Hermes's CLI and full registries). */
const charactersPerToken = 4.5;
const cache = new Map<string, Omit<ToolRoutingContext, 'tools'>>();
/** Only these parts of the config shape a context; a config object re-parsed per request still hits the cache. */
const configKeys = new WeakMap<ToolRoutingConfig, string>();

function configKey(config: ToolRoutingConfig): string {
  let key = configKeys.get(config);
  if (key === undefined) {
    key = JSON.stringify([config.toolsets, config.prefix_grouping, config.per_tool.min_tools]);
    configKeys.set(config, key);
  }
  return key;
}

export function toolRoutingContext(tools: readonly unknown[], format: ApiFormat, config: ToolRoutingConfig): ToolRoutingContext | ContextProblem {
  const views = readToolViews(tools, format);
  if (!views) return 'unreadable_tools';
  if (views.some((view) => view.name === requestToolsetName)) return 'name_conflict';
  let key = `${format}\u0000${configKey(config)}`;
  // Names and description lengths: hashing 60 KB of descriptions on every request would cost more than the
  // decision. What the key leaves out (a same-length description edit) only touches the description matcher's
  // vocabulary; the catalog is built from names, the Hermes map and config, so its bytes cannot go stale.
  for (const view of views) key += `\u0000${view.name}\u0001${view.description.length}`;
  const hit = cache.get(key);
  if (hit) return { ...hit, tools };

  const options = { overrides: config.toolsets, prefixGrouping: config.prefix_grouping };
  let registry = buildToolsetRegistry(views, options);
  // Tens of tools no map knows (MCP servers, an agent's own): rank each on its own rather than keep them whole.
  const unknown = views.filter((view) => !['config', 'hermes'].includes(registry.byName.get(registry.ownerByIndex[view.index] ?? '')?.source ?? ''));
  const perToolMode = config.per_tool.min_tools > 0 && unknown.length >= config.per_tool.min_tools;
  if (perToolMode) registry = buildToolsetRegistry(views, { ...options, perTool: true });
  const described: DescribedToolset[] = registry.toolsets.map((toolset) => ({
    name: toolset.name,
    toolNames: toolset.toolNames,
    descriptions: [toolset.description, ...toolset.toolIndices.map((index) => views[index]?.description ?? '')],
  }));
  // Frozen: the same object is sent on every turn of every session with these tools, so nothing may edit it.
  const requestToolset = deepFreeze(buildRequestToolsetTool(registry, format));
  const perToolsets = registry.toolsets.filter((toolset) => toolset.source === 'tool');
  const ranked = new Set(perToolsets.map((toolset) => toolset.name));
  const mapped = perToolMode ? described.filter((toolset) => !ranked.has(toolset.name)) : [];
  const perTool = perToolMode
    ? {
        toolsets: perToolsets.map((toolset) => toolset.name),
        mapped,
        mappedProfile: buildDescriptionProfile(mapped),
        index: buildToolIndex(
          perToolsets.map((toolset) => {
            const index = toolset.toolIndices[0]!;
            return { name: toolset.name, description: views[index]?.description ?? '', parameters: parameterText(tools[index]) };
          }),
          loadWordClusters(),
          loadWordVectors(),
        ),
      }
    : undefined;
  // Each tool's size once per tools array (the surface budget weighs whole surfaces); only the model's toolsets
  // (Hermes names) get a toolset size, for the cost-aware bars.
  const toolTokens = tools.map((tool) => JSON.stringify(tool ?? null).length / charactersPerToken);
  const totalTokens = toolTokens.reduce((sum, count) => sum + count, 0);
  const toolsetTokens = new Map(registry.toolsets.filter((toolset) => toolset.source === 'hermes').map((toolset) => [toolset.name, toolset.toolIndices.reduce((sum, index) => sum + (toolTokens[index] ?? 0), 0)]));
  const requestToolsetTokens = JSON.stringify(requestToolset).length / charactersPerToken;
  const built = { format, views, registry, requestToolset, described, profile: buildDescriptionProfile(described), toolsetTokens, toolTokens, totalTokens, requestToolsetTokens, ...(perTool ? { perTool } : {}) };
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(key, built);
  return { ...built, tools };
}

/** Parameter names and descriptions of a tool object in any wire shape (function.parameters, input_schema). */
function parameterText(tool: unknown): string {
  if (!isJsonObject(tool)) return '';
  const inner = isJsonObject(tool.function) ? tool.function : tool;
  const schema = isJsonObject(inner.parameters) ? inner.parameters : isJsonObject(inner.input_schema) ? inner.input_schema : undefined;
  const properties = schema && isJsonObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties)
    .map(([name, property]) => `${name} ${isJsonObject(property) && typeof property.description === 'string' ? property.description : ''}`)
    .join(' ');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
