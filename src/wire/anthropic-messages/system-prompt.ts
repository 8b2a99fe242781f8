import type { JsonObject } from '../../core/json.js';
import { appendToText } from '../append-to-text.js';

/** `system` (a string or a block list) ends with `note`. */
export function anthropicSystemPromptMembers(body: JsonObject, note: string): JsonObject {
  return { system: appendToText(body.system, note) };
}
