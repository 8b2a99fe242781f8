import type { ApiFormat } from '../core/api-format.js';
import { isJsonObject } from '../core/json.js';
import type { ToolView } from '../core/turn.js';

/**
 * Reads a tool object of the client's format. OpenAI chat: `{type:"function", function:{name, description}}`;
 * Anthropic: `{name, description, input_schema}` (server tools such as `web_search_20250305` have a `type` and a
 * name but no schema; they are read too, and the registry keeps them since nothing owns them).
 * Returns undefined when the object has no readable name: the caller then keeps the full surface.
 */
export function readToolView(tool: unknown, format: ApiFormat, index: number): ToolView | undefined {
  if (!isJsonObject(tool)) return undefined;
  if (format === 'openai-chat') {
    const definition = tool['function'];
    if (!isJsonObject(definition)) return undefined;
    const name = definition['name'];
    if (typeof name !== 'string' || name.length === 0) return undefined;
    const description = definition['description'];
    return { name, description: typeof description === 'string' ? description : '', index };
  }
  const name = tool['name'];
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const description = tool['description'];
  return { name, description: typeof description === 'string' ? description : '', index };
}

/** Views of every tool, or undefined if any tool is unreadable (an unknown shape is never narrowed). */
export function readToolViews(tools: readonly unknown[], format: ApiFormat): ToolView[] | undefined {
  const views: ToolView[] = [];
  for (let index = 0; index < tools.length; index += 1) {
    const view = readToolView(tools[index], format, index);
    if (!view) return undefined;
    views.push(view);
  }
  return views;
}
