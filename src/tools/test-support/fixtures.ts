import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../classify/toolsets/model-file.js';
import type { MessageView } from '../../core/turn.js';

/** The Hermes CLI and full registries as a client sends them (the fixtures' extra `toolset` field removed). */
export function hermesTools(registry: 'cli' | 'full'): unknown[] {
  const parsed = JSON.parse(readFileSync(join(packageRoot(), `data/tool-routing/registries/tools.${registry}.json`), 'utf8')) as Record<string, unknown>[];
  return parsed.map(({ toolset: _toolset, ...rest }) => rest);
}

/** The same tools in Anthropic Messages shape. */
export function asAnthropicTools(tools: readonly unknown[]): unknown[] {
  return tools.map((tool) => {
    const definition = (tool as { function: { name: string; description: string; parameters: unknown } }).function;
    return { name: definition.name, description: definition.description, input_schema: definition.parameters };
  });
}

export function userTurn(text: string, hasImage = false): MessageView[] {
  return [
    { role: 'system', text: 'You are Hermes.', toolCallNames: [], hasImage: false },
    { role: 'user', text, toolCallNames: [], hasImage },
  ];
}
