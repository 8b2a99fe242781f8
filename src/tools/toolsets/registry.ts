import type { ToolView } from '../../core/turn.js';
import type { ToolsetOverride } from '../config.js';
import { hermesToolsetDescription, hermesToolsetOf } from './hermes-map.js';
import { agentToolsetOf } from './agent-maps.js';
import { mcpServerOf, mcpToolsetName } from './mcp.js';
import { prefixGroups } from './prefix.js';

/** `tool`: a tool no map knows, ranked on its own (per-tool mode): a toolset of one, named after the tool. */
export type ToolsetSource = 'config' | 'hermes' | 'mcp' | 'prefix' | 'tool';

export interface ToolsetEntry {
  name: string;
  /** One line for the capability catalog. */
  description: string;
  source: ToolsetSource;
  /** Indices into the client's `tools` array, ascending. */
  toolIndices: number[];
  toolNames: string[];
}

/**
 * Who owns each of the client's tools. Precedence: config overrides, the Hermes map, MCP naming, shared name
 * prefixes. A tool nothing claims has unknown ownership and is always kept on every surface (fail open).
 */
export interface ToolsetRegistry {
  /** Owner per tool index; undefined = unknown ownership. */
  ownerByIndex: (string | undefined)[];
  /** In order of first appearance in the client's tools: the catalog order, stable for the same input. */
  toolsets: ToolsetEntry[];
  byName: ReadonlyMap<string, ToolsetEntry>;
}

export interface RegistryOptions {
  overrides?: Readonly<Record<string, ToolsetOverride>>;
  prefixGrouping?: boolean;
  /** Every tool that config and the Hermes map leave unowned becomes a toolset of its own (`tool` source). */
  perTool?: boolean;
}

export function buildToolsetRegistry(tools: readonly ToolView[], options: RegistryOptions = {}): ToolsetRegistry {
  const ownerByIndex: (string | undefined)[] = tools.map(() => undefined);
  const sourceByToolset = new Map<string, ToolsetSource>();
  const overrideEntries = Object.entries(options.overrides ?? {});
  const unowned: ToolView[] = [];
  for (const tool of tools) {
    const configured = overrideEntries.find(([, override]) => override.tools.some((pattern) => matchesPattern(pattern, tool.name)));
    if (configured) {
      assign(tool.index, configured[0], 'config');
      continue;
    }
    // Known agents' tools (agent-maps.ts) use Hermes's toolset names, so they count as Hermes-owned.
    const hermes = hermesToolsetOf(tool.name) ?? agentToolsetOf(tool.name);
    if (hermes) {
      assign(tool.index, hermes, 'hermes');
      continue;
    }
    if (options.perTool) {
      assign(tool.index, tool.name, 'tool');
      continue;
    }
    const server = mcpServerOf(tool.name);
    if (server) {
      assign(tool.index, mcpToolsetName(server), 'mcp');
      continue;
    }
    unowned.push(tool);
  }
  if (options.prefixGrouping ?? true) {
    for (const [index, prefix] of prefixGroups(unowned)) assign(index, prefix, 'prefix');
  }

  const toolsets: ToolsetEntry[] = [];
  const byName = new Map<string, ToolsetEntry>();
  for (const tool of tools) {
    const owner = ownerByIndex[tool.index];
    if (owner === undefined) continue;
    let entry = byName.get(owner);
    if (!entry) {
      entry = { name: owner, description: '', source: sourceByToolset.get(owner) ?? 'prefix', toolIndices: [], toolNames: [] };
      byName.set(owner, entry);
      toolsets.push(entry);
    }
    entry.toolIndices.push(tool.index);
    entry.toolNames.push(tool.name);
  }
  for (const entry of toolsets) {
    entry.description = describeToolset(entry, options.overrides?.[entry.name]?.description, tools[entry.toolIndices[0]!]?.description ?? '');
  }
  return { ownerByIndex, toolsets, byName };

  function assign(index: number, toolset: string, source: ToolsetSource): void {
    ownerByIndex[index] = toolset;
    if (!sourceByToolset.has(toolset)) sourceByToolset.set(toolset, source);
  }
}

/** `*` matches any run of characters; everything else is literal. */
export function matchesPattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const expression = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return expression.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Built from the tools themselves when no one wrote a line: deterministic, so the catalog stays byte-stable. */
function describeToolset(entry: ToolsetEntry, configured: string | undefined, toolDescription: string): string {
  if (configured) return configured;
  // A toolset of one tool: the first words of its own description are the catalog line (kept short: with
  // hundreds of tools the catalog is most of what a narrowed surface costs).
  if (entry.source === 'tool') return toolDescription.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ') || 'tool';
  if (entry.source === 'hermes') {
    const known = hermesToolsetDescription(entry.name);
    if (known) return known;
  }
  const shown = entry.toolNames.slice(0, 6).join(', ');
  const more = entry.toolNames.length > 6 ? ` and ${entry.toolNames.length - 6} more` : '';
  const label = entry.source === 'mcp' ? `MCP server ${entry.name.slice(4)} tools` : 'tools';
  return `${label}: ${shown}${more}`;
}
