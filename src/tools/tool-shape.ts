import type { ApiFormat } from '../core/api-format.js';
import type { ToolView } from '../core/turn.js';
import { wireFormat } from '../wire/formats.js';

/**
 * Reads a tool object of the client's format (`WireFormat.readTool`). Returns undefined when the object has no
 * readable name: the caller then keeps the full surface.
 */
export function readToolView(tool: unknown, format: ApiFormat, index: number): ToolView | undefined {
  return wireFormat(format).readTool(tool, index);
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
