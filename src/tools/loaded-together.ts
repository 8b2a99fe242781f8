/**
 * The members of `groups` the client has (`available`) that are missing from `toolsets` while another member is in
 * it. `tool_routing.loaded_together` names toolsets one service splits along a line users do not draw (Hermes's
 * discord channels and pins on one side, messages and threads on the other), so a surface that holds one member
 * holds them all, on the first turn and whenever the surface grows.
 */
export function togetherWith(toolsets: readonly string[], groups: readonly (readonly string[])[], available: readonly string[]): string[] {
  const chosen = new Set(toolsets);
  const added: string[] = [];
  for (const group of groups) {
    if (!group.some((member) => chosen.has(member))) continue;
    for (const member of group) {
      if (chosen.has(member) || !available.includes(member)) continue;
      chosen.add(member);
      added.push(member);
    }
  }
  return added;
}
