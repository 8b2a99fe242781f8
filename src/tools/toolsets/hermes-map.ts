import hermesToolsetsJson from './hermes-toolsets.json' with { type: 'json' };

/**
 * Hermes Agent's tool → toolset ownership (the `toolset` field of its registry, v0.19.0) and one line per
 * toolset for the capability catalog. A JSON import so the build ships it next to this module.
 */
export interface HermesToolsets {
  toolsets: Readonly<Record<string, { description: string }>>;
  tools: Readonly<Record<string, string>>;
}

export const hermesToolsets: HermesToolsets = hermesToolsetsJson satisfies HermesToolsets;

export function hermesToolsetOf(toolName: string): string | undefined {
  return Object.hasOwn(hermesToolsets.tools, toolName) ? hermesToolsets.tools[toolName] : undefined;
}

export function hermesToolsetDescription(toolset: string): string | undefined {
  return Object.hasOwn(hermesToolsets.toolsets, toolset) ? hermesToolsets.toolsets[toolset]?.description : undefined;
}
