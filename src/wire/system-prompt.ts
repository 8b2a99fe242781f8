import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import { wireFormat } from './formats.js';

/**
 * The top-level members that, put in place of the body's own, end its system prompt with `note`, in the
 * client's format (`WireFormat.systemPromptMembers`). Nothing in `body` is touched: every changed value is a
 * copy, so a caller replaces members (copy on write) and the parsed body still forwards its other members as the
 * client's own bytes.
 */
export function systemPromptMembers(format: ApiFormat, body: JsonObject, note: string): JsonObject {
  return wireFormat(format).systemPromptMembers(body, note);
}

/** Adds the note to the request's system prompt by replacing the top-level member that holds it. */
export function addNoteToSystemPrompt(turn: { format: ApiFormat; body: JsonObject }, note: string): void {
  Object.assign(turn.body, systemPromptMembers(turn.format, turn.body, note));
}
