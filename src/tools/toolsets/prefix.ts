import type { ToolView } from '../../core/turn.js';

/**
 * Groups tools that share a name prefix (`browser_click`, `browser_type` → `browser`). A prefix counts only
 * when at least two otherwise-unowned tools share it: a lone `get_weather` is not a toolset of one.
 */
export function prefixGroups(tools: readonly ToolView[], minimumSize = 2): Map<number, string> {
  const byPrefix = new Map<string, number[]>();
  for (const tool of tools) {
    const match = /^([a-zA-Z][a-zA-Z0-9]*)[_.-][a-zA-Z0-9]/.exec(tool.name);
    if (!match) continue;
    const prefix = match[1]!.toLowerCase();
    const members = byPrefix.get(prefix) ?? [];
    members.push(tool.index);
    byPrefix.set(prefix, members);
  }
  const owner = new Map<number, string>();
  for (const [prefix, members] of byPrefix) {
    if (members.length < minimumSize) continue;
    for (const index of members) owner.set(index, prefix);
  }
  return owner;
}
