import type { MessageView } from '../core/turn.js';
import { withoutAgentContext } from './agent-context.js';

/** A first turn: at least one user message and no assistant or tool message (system messages do not count). */
export function isFirstTurn(messages: readonly MessageView[]): boolean {
  let users = 0;
  for (const message of messages) {
    if (message.role === 'assistant' || message.role === 'tool') return false;
    if (message.role === 'user') users += 1;
  }
  return users > 0;
}

/**
 * The text to classify: the user messages before the first assistant turn (usually exactly one), without the
 * context blocks agents add to them (reminders, environment), which are not the user's request.
 */
export function firstUserText(messages: readonly MessageView[]): { text: string; hasImage: boolean } | undefined {
  const parts: string[] = [];
  let hasImage = false;
  for (const message of messages) {
    if (message.role === 'assistant' || message.role === 'tool') break;
    if (message.role !== 'user') continue;
    const text = withoutAgentContext(message.text);
    if (text.length > 0) parts.push(text);
    hasImage ||= message.hasImage;
  }
  if (parts.length === 0) return undefined;
  return { text: parts.join('\n'), hasImage };
}

/** The new user turn's text: the user messages after the last assistant or tool message, if the request ends there. */
export function newUserTurn(messages: readonly MessageView[]): { text: string; hasImage: boolean } | undefined {
  const last = messages.at(-1);
  if (!last || last.role !== 'user') return undefined;
  const parts: string[] = [];
  let hasImage = false;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as MessageView;
    if (message.role !== 'user') break;
    parts.unshift(message.text);
    hasImage ||= message.hasImage;
  }
  return { text: parts.join('\n'), hasImage };
}

/**
 * The request a resumed conversation is making now: the new user turn (`newUserTurn`) without agent context blocks.
 * Undefined on a first turn (the first user text is that request) or when the history ends with the assistant.
 */
export function latestUserText(messages: readonly MessageView[]): { text: string; hasImage: boolean } | undefined {
  if (isFirstTurn(messages)) return undefined;
  const turn = newUserTurn(messages);
  return turn && { text: withoutAgentContext(turn.text), hasImage: turn.hasImage };
}

/** Names of every tool the assistant called anywhere in the history. */
export function calledToolNames(messages: readonly MessageView[]): string[] {
  const names = new Set<string>();
  for (const message of messages) for (const name of message.toolCallNames) names.add(name);
  return [...names];
}
