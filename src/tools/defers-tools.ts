import { isJsonObject } from '../core/json.js';

/** Tools through which an agent loads its other tools on demand. */
const toolSearchNames = new Set(['ToolSearch', 'tool_search']);

/**
 * Whether the agent already defers its tools: it sends a tool-search tool (Claude Code `ToolSearch`, Qwen Code
 * and Hermes `tool_search`) or a tool marked `defer_loading`. Such an agent sends a small core set and fetches
 * the rest itself; narrowing that set saves little (Claude Code's 12 tools are ~32 KB, mostly prompt-cached) and
 * could hide the very tool it searches with, so the gateway leaves its tools alone.
 */
export function agentDefersTools(tools: readonly unknown[]): boolean {
  return tools.some((tool) => {
    if (!isJsonObject(tool)) return false;
    if (tool['defer_loading'] === true) return true;
    const definition = isJsonObject(tool['function']) ? tool['function'] : tool;
    return typeof definition['name'] === 'string' && toolSearchNames.has(definition['name']);
  });
}
