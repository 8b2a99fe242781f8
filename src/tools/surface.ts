import type { ApiFormat } from '../core/api-format.js';
import type { ToolRoutingConfig } from './config.js';
import type { ToolRoutingContext } from './routing-context.js';
import { toolRoutingContext } from './routing-context.js';

/** A narrowed tools array and what it holds. */
export interface ToolSurface {
  /** Toolsets loaded, in registry (first appearance) order. */
  loadedToolsets: string[];
  /** Indices into the client's tools that are sent, ascending. */
  keptIndices: number[];
  /** The tools array to send: the client's kept tool objects in their original order, `request_toolset` last. */
  tools: unknown[];
}

/** Toolsets that must stay reachable whenever they exist: Hermes's deferred-tool bridge. */
export const alwaysLoadedToolsets = ['tool_search'];

/**
 * The surface holding `toolsets` plus the floor, pinned tools and tools of unknown ownership. A pure function
 * of (client tools, config, toolsets): the same toolsets always give the same array, which is what keeps
 * sticky turns byte-identical. Names not on the client's surface are ignored.
 */
export function buildSurface(context: ToolRoutingContext, config: ToolRoutingConfig, toolsets: Iterable<string>): ToolSurface {
  const wanted = new Set<string>([...toolsets, ...config.floor_toolsets, ...alwaysLoadedToolsets]);
  const loadedToolsets = context.registry.toolsets.filter((toolset) => wanted.has(toolset.name)).map((toolset) => toolset.name);
  const loaded = new Set(loadedToolsets);
  const pinned = new Set(config.pinned_tools);
  const keptIndices: number[] = [];
  const tools: unknown[] = [];
  for (const view of context.views) {
    const owner = context.registry.ownerByIndex[view.index];
    if (owner === undefined || loaded.has(owner) || pinned.has(view.name)) {
      keptIndices.push(view.index);
      tools.push(context.tools[view.index]);
    }
  }
  tools.push(context.requestToolset);
  return { loadedToolsets, keptIndices, tools };
}

/**
 * Grows a surface by `addedToolsets` (request_toolset results, pruned tools the model called). Never shrinks:
 * the result holds every toolset of `current` too, and keeps the client's order with request_toolset last.
 */
export function expandSurface(context: ToolRoutingContext, config: ToolRoutingConfig, current: Pick<ToolSurface, 'loadedToolsets'>, addedToolsets: readonly string[]): ToolSurface {
  return buildSurface(context, config, [...current.loadedToolsets, ...addedToolsets]);
}

/** The toolset owning a client tool, for recovery when the model calls a tool the router pruned. */
export function toolsetOfTool(context: ToolRoutingContext, toolName: string): string | undefined {
  const view = context.views.find((candidate) => candidate.name === toolName);
  return view === undefined ? undefined : context.registry.ownerByIndex[view.index];
}

/**
 * The surface of a known session on a later turn: the same loaded toolsets over the client's (unchanged) tools
 * give the same bytes. Undefined when the tools can no longer be read; the caller then sends them untouched.
 */
export function restoreSurface(tools: readonly unknown[], format: ApiFormat, config: ToolRoutingConfig, loadedToolsets: readonly string[]): ToolSurface | undefined {
  const context = toolRoutingContext(tools, format, config);
  if (typeof context === 'string') return undefined;
  return buildSurface(context, config, loadedToolsets);
}
