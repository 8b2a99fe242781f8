import type { ToolsetRegistry } from './toolsets/registry.js';

export const requestToolsetName = 'request_toolset';

/**
 * The capability catalog: every toolset of the client's full surface, one line each, in registry order. It is
 * a pure function of the client's tools (and config), never of what is loaded, so it is byte-identical on
 * every turn and across expansions, and "what can you do?" is answered truthfully from a small surface.
 */
export function buildCapabilityCatalog(registry: ToolsetRegistry): string {
  const lines = registry.toolsets.map((toolset) => `- ${toolset.name}: ${singleLine(toolset.description)}`);
  return [
    'Load more of your tools. Only some of your tools are loaded right now; this is the full list of your capabilities, one toolset per line.',
    'Answer questions about what you can do from this list. Before using a capability whose tools are not loaded, call this tool with the toolset names you need; their tools are then available on the next step.',
    'Toolsets:',
    ...lines,
  ].join('\n');
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
