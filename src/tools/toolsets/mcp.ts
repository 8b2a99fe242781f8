/**
 * MCP tool naming. Hermes exposes MCP tools as `mcp_<server>_<tool>`, Claude Code and others as
 * `mcp__<server>__<tool>`, and many clients as `<server>__<tool>`. Every tool of one server becomes the
 * toolset `mcp:<server>`. For the single-underscore form the server name is taken up to the next underscore:
 * a server whose own name has underscores splits into finer toolsets, which costs bytes, never capability.
 */
export function mcpServerOf(toolName: string): string | undefined {
  const doubled = /^mcp__([^_].*?)__(.+)$/.exec(toolName);
  if (doubled) return doubled[1];
  const single = /^mcp_([a-zA-Z0-9-]+)_(.+)$/.exec(toolName);
  if (single) return single[1];
  const namespaced = /^([a-zA-Z0-9][a-zA-Z0-9_-]*?)__([a-zA-Z0-9].*)$/.exec(toolName);
  if (namespaced) return namespaced[1];
  return undefined;
}

export function mcpToolsetName(server: string): string {
  return `mcp:${server}`;
}
