import { isJsonObject } from '../core/json.js';
import type { ToolsetRegistry } from './toolsets/registry.js';

export interface RequestToolsetArguments {
  /** Toolset names that exist on the client's full surface, deduplicated, in the order asked. */
  valid: string[];
  /** Names asked for that do not exist. */
  unknown: string[];
}

/**
 * Parses the arguments of a `request_toolset` call: a JSON string (OpenAI) or an object (Anthropic). Accepts
 * `toolsets` as an array or a comma-separated string, and a lone `toolset`, because models improvise; names are
 * matched exactly first, then case-insensitively.
 */
export function parseRequestToolsetCall(argumentsValue: unknown, registry: ToolsetRegistry): RequestToolsetArguments {
  let parsed: unknown = argumentsValue;
  if (typeof argumentsValue === 'string') {
    try {
      parsed = JSON.parse(argumentsValue || '{}');
    } catch {
      parsed = { toolsets: argumentsValue };
    }
  }
  const requested: string[] = [];
  if (isJsonObject(parsed)) {
    for (const key of ['toolsets', 'toolset', 'names', 'name']) {
      const value = parsed[key];
      if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') requested.push(item);
      if (typeof value === 'string') requested.push(...value.split(','));
    }
  }
  const valid: string[] = [];
  const unknown: string[] = [];
  for (const raw of requested) {
    const name = raw.trim();
    if (!name) continue;
    const resolved = registry.byName.has(name) ? name : registry.toolsets.find((toolset) => toolset.name.toLowerCase() === name.toLowerCase())?.name;
    if (resolved === undefined) {
      if (!unknown.includes(name)) unknown.push(name);
    } else if (!valid.includes(resolved)) valid.push(resolved);
  }
  return { valid, unknown };
}

/**
 * The tool result the gateway appends after intercepting a call. Starts with READY when something was loaded,
 * ERROR otherwise; always lists the valid names when some were unknown, so the model can retry once correctly.
 */
export function requestToolsetResultText(result: RequestToolsetArguments, registry: ToolsetRegistry): string {
  const parts: string[] = [];
  if (result.valid.length > 0) parts.push(`READY: loaded ${result.valid.join(', ')}. Their tools are available now; continue the task.`);
  if (result.unknown.length > 0 || result.valid.length === 0) {
    const asked = result.unknown.length > 0 ? `unknown toolset${result.unknown.length > 1 ? 's' : ''} ${result.unknown.join(', ')}` : 'no toolset named';
    parts.push(`ERROR: ${asked}. Valid toolsets: ${registry.toolsets.map((toolset) => toolset.name).join(', ')}.`);
  }
  return parts.join(' ');
}
