import type { ToolsetRegistry } from './toolsets/registry.js';

export const requestToolsetName = 'request_toolset';

/**
 * The capability catalog: every toolset of the client's full surface, one line each, in registry order. It is
 * a pure function of the client's tools (and config), never of what is loaded, so it is byte-identical on
 * every turn and across expansions, and "what can you do?" is answered truthfully from a small surface.
 */
export function buildCapabilityCatalog(registry: ToolsetRegistry): string {
  const lines = registry.toolsets.map((toolset) => `- ${toolset.name}: ${singleLine(toolset.description)}`);
  // Every word here is sent on every narrowed request, so it is kept short: a first surface is often under 2,000
  // tokens, and each 140 tokens of fixed overhead is a point of reduction on Hermes's 14,000-token surface.
  return ['Only some of your tools are loaded. All your capabilities (answer "what can you do" from this list):', ...lines, 'To use one not loaded, first call this with its toolset name.'].join('\n');
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
