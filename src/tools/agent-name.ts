import type { Turn } from '../core/turn.js';
import { agentToolsetOf } from './toolsets/agent-maps.js';
import { hermesToolsetOf } from './toolsets/hermes-map.js';

/** `User-Agent` prefixes of the agents people put a gateway in front of (the versions in agent-maps.ts). */
const knownUserAgents: readonly (readonly [RegExp, string])[] = [
  [/^claude-cli\//i, 'Claude Code'],
  [/^codex/i, 'Codex CLI'],
  [/^opencode\//i, 'opencode'],
  [/qwen-?code/i, 'Qwen Code'],
  [/gemini-?cli/i, 'Gemini CLI'],
];

/**
 * Which agent sent a request, for a person reading reports: Hermes Agent by its tools (it sends the OpenAI
 * Python SDK's `User-Agent`, which says nothing), a known coding agent by its `User-Agent`, else that header's
 * product name (`OpenAI/Python`, `curl`). Undefined when nothing tells.
 */
export function agentName(turn: Pick<Turn, 'tools' | 'hints'>): string | undefined {
  const names = turn.tools.map((tool) => tool.name);
  const hermesOwned = names.filter((name) => hermesToolsetOf(name) !== undefined);
  // Some Hermes names are also another agent's (`read_file`); Hermes is told by many Hermes-only names.
  const hermesOnly = hermesOwned.filter((name) => agentToolsetOf(name) === undefined);
  if (names.length >= 5 && hermesOwned.length >= names.length * 0.8 && hermesOnly.length >= 3) return 'Hermes Agent';
  const userAgent = turn.hints.userAgent?.trim();
  if (!userAgent) return undefined;
  const known = knownUserAgents.find(([pattern]) => pattern.test(userAgent));
  if (known) return known[1];
  const product = userAgent.split(/\s+/)[0] ?? '';
  const versioned = /^([^/]+)\/v?\d/.exec(product);
  return (versioned?.[1] ?? product).slice(0, 40) || undefined;
}
