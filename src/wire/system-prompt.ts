import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';

function appendToText(existing: unknown, note: string): unknown {
  if (typeof existing === 'string') return existing === '' ? note : `${existing}\n\n${note}`;
  if (Array.isArray(existing)) return [...existing, { type: 'text', text: note }];
  return note;
}

/**
 * The top-level members that, put in place of the body's own, end its system prompt with `note`, in the
 * client's format: OpenAI's first system (or developer) message, else a new one in front; Anthropic's `system`
 * string or block list. Nothing in `body` is touched: every changed value is a copy, so a caller replaces members
 * (copy on write) and the parsed body still forwards its other members as the client's own bytes.
 */
export function systemPromptMembers(format: ApiFormat, body: JsonObject, note: string): JsonObject {
  if (format === 'anthropic-messages') return { system: appendToText(body.system, note) };
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const index = messages.findIndex((message) => isJsonObject(message) && (message.role === 'system' || message.role === 'developer'));
  if (index < 0) return { messages: [{ role: 'system', content: note }, ...messages] };
  const system = messages[index] as JsonObject;
  const copy = [...messages];
  copy[index] = { ...system, content: appendToText(system.content, note) };
  return { messages: copy };
}

/** Adds the note to the request's system prompt by replacing the top-level member that holds it. */
export function addNoteToSystemPrompt(turn: { format: ApiFormat; body: JsonObject }, note: string): void {
  Object.assign(turn.body, systemPromptMembers(turn.format, turn.body, note));
}
