import type { ApiFormat } from '../core/api-format.js';
import type { ToolRoutingConfig } from './config.js';
import { togetherWith } from './loaded-together.js';
import type { ToolRoutingContext } from './routing-context.js';
import { toolRoutingContext } from './routing-context.js';

/** A narrowed tools array and what it holds. */
export interface ToolSurface {
  /** Toolsets loaded: the first surface's in registry (first appearance) order, then `grownToolsets`. */
  loadedToolsets: string[];
  /** Toolsets added after the session's first surface, in the order they joined (their tools are appended). */
  grownToolsets: string[];
  /** Indices into the client's tools that are sent, in the order sent. */
  keptIndices: number[];
  /**
   * The tools array to send: the first surface's tools in the client's order, `request_toolset`, then each grown
   * toolset's tools (in the client's order) in the order the toolsets joined.
   */
  tools: unknown[];
}

/** Toolsets that must stay reachable whenever they exist: Hermes's deferred-tool bridge. */
export const alwaysLoadedToolsets = ['tool_search'];

/**
 * The surface holding `toolsets` plus the floor, pinned tools and tools of unknown ownership, then the tools of
 * `request_toolset`, then the tools of `grown` appended toolset by toolset. A pure function of (client tools,
 * config, toolsets, grown): the same input always gives the same array, which is what keeps sticky turns
 * byte-identical. Appending after `request_toolset` is what keeps a growth cheap: a provider's prompt cache is a
 * prefix, and the previous call's whole tools array is still in front, byte for byte, so only the new tools and
 * what follows them are written again. Names not on the client's surface are ignored.
 */
export function buildSurface(context: ToolRoutingContext, config: ToolRoutingConfig, toolsets: Iterable<string>, grown: Iterable<string> = []): ToolSurface {
  const wanted = new Set<string>([...toolsets, ...config.floor_toolsets, ...alwaysLoadedToolsets]);
  const loadedToolsets = context.registry.toolsets.filter((toolset) => wanted.has(toolset.name)).map((toolset) => toolset.name);
  const loaded = new Set(loadedToolsets);
  const pinned = new Set(config.pinned_tools);
  const keptIndices: number[] = [];
  const tools: unknown[] = [];
  for (const view of context.views) {
    const owner = context.registry.ownerByIndex[view.index];
    if (owner === undefined || view.hosted === true || loaded.has(owner) || pinned.has(view.name)) {
      keptIndices.push(view.index);
      tools.push(context.tools[view.index]);
    }
  }
  tools.push(context.requestToolset);
  const grownToolsets: string[] = [];
  const known = new Set(context.registry.toolsets.map((toolset) => toolset.name));
  for (const name of grown) {
    if (loaded.has(name) || !known.has(name)) continue;
    loaded.add(name);
    grownToolsets.push(name);
    for (const view of context.views) {
      if (context.registry.ownerByIndex[view.index] !== name || pinned.has(view.name) || view.hosted === true) continue;
      keptIndices.push(view.index);
      tools.push(context.tools[view.index]);
    }
  }
  return { loadedToolsets: [...loadedToolsets, ...grownToolsets], grownToolsets, keptIndices, tools };
}

/** The toolsets of a surface that were there from the start (not grown). */
export function baseToolsets(surface: { readonly loadedToolsets: readonly string[]; readonly grownToolsets: readonly string[] }): string[] {
  return surface.loadedToolsets.filter((toolset) => !surface.grownToolsets.includes(toolset));
}

/**
 * Grows a surface by `addedToolsets` (anticipation, request_toolset results, pruned tools the model called).
 * Never shrinks: the result starts with every tool of `current` in the same order, then the new toolsets' tools.
 */
export function expandSurface(
  context: ToolRoutingContext,
  config: ToolRoutingConfig,
  current: { readonly loadedToolsets: readonly string[]; readonly grownToolsets: readonly string[] },
  addedToolsets: readonly string[],
): ToolSurface {
  // Only the partners of what joins now: a partner missing from the stored surface (a group configured after the
  // session began) is left out, or a turn that adds nothing would change the bytes and break the provider's cache.
  // Partners already loaded are skipped by buildSurface, like any loaded name.
  const available = context.registry.toolsets.map((toolset) => toolset.name);
  const joining = addedToolsets.filter((name) => !current.loadedToolsets.includes(name));
  const partners = togetherWith(joining, config.loaded_together, available);
  return buildSurface(context, config, baseToolsets(current), [...current.grownToolsets, ...addedToolsets, ...partners]);
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
export function restoreSurface(
  tools: readonly unknown[],
  format: ApiFormat,
  config: ToolRoutingConfig,
  loadedToolsets: readonly string[],
  grownToolsets: readonly string[] = [],
): ToolSurface | undefined {
  const context = toolRoutingContext(tools, format, config);
  if (typeof context === 'string') return undefined;
  return buildSurface(context, config, baseToolsets({ loadedToolsets, grownToolsets }), grownToolsets);
}
