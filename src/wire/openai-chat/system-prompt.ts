import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import { appendToText } from '../append-to-text.js';

/** The first system (or developer) message ends with `note`; without one, a system message in front. */
export function openAiSystemPromptMembers(body: JsonObject, note: string): JsonObject {
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const index = messages.findIndex((message) => isJsonObject(message) && (message.role === 'system' || message.role === 'developer'));
  if (index < 0) return { messages: [{ role: 'system', content: note }, ...messages] };
  const system = messages[index] as JsonObject;
  const copy = [...messages];
  copy[index] = { ...system, content: appendToText(system.content, note) };
  return { messages: copy };
}
