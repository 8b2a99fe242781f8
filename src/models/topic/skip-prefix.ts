/**
 * `/sd fix this` (or `!sd`, `@@sd`, `/skipdetect`, `!skipdetect`, `@@skipdetect`) skips topic routing for one
 * turn; the prefix is removed before the request goes upstream. A prefix must be followed by whitespace or end
 * the message, so `/sdd` and `/skip` are ordinary text.
 */
const skipPrefixPattern = /^\s*(\/|!|@@)(sd|skipdetect)(?=\s|$)\s*/i;

export interface SkipPrefixResult {
  skipped: boolean;
  /** The prefix as typed, when there was one. */
  prefix?: string;
  /** The text with the prefix removed (unchanged when there was none). */
  text: string;
}

export function detectSkipPrefix(text: string): SkipPrefixResult {
  const match = skipPrefixPattern.exec(text);
  if (!match) return { skipped: false, text };
  return { skipped: true, prefix: `${match[1]}${match[2]}`, text: text.slice(match[0].length) };
}

export interface MessageLike {
  role: string;
  content?: unknown;
}

/**
 * Strips a skip prefix from the last user message (string content, or the first text part of a parts list)
 * and returns new messages; the input is never mutated. `skipped` is false and the messages are returned as
 * they were when the last user message has no prefix.
 */
export function stripSkipPrefix<Message extends MessageLike>(messages: readonly Message[]): { skipped: boolean; prefix?: string; messages: Message[] } {
  const index = findLastUserIndex(messages);
  const message = index >= 0 ? messages[index] : undefined;
  if (!message) return { skipped: false, messages: [...messages] };
  const replaced = replaceLeadingText(message.content);
  if (!replaced) return { skipped: false, messages: [...messages] };
  const copy = [...messages];
  copy[index] = { ...message, content: replaced.content };
  return { skipped: true, prefix: replaced.prefix, messages: copy };
}

function findLastUserIndex(messages: readonly MessageLike[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) if (messages[index]?.role === 'user') return index;
  return -1;
}

function replaceLeadingText(content: unknown): { content: unknown; prefix: string } | undefined {
  if (typeof content === 'string') {
    const result = detectSkipPrefix(content);
    return result.skipped ? { content: result.text, prefix: result.prefix! } : undefined;
  }
  if (!Array.isArray(content)) return undefined;
  const partIndex = content.findIndex((part: unknown) => isTextPart(part));
  if (partIndex < 0) return undefined;
  const part = content[partIndex] as { type: string; text: string };
  const result = detectSkipPrefix(part.text);
  if (!result.skipped) return undefined;
  const parts = [...content];
  parts[partIndex] = { ...part, text: result.text };
  return { content: parts, prefix: result.prefix! };
}

function isTextPart(part: unknown): part is { type: string; text: string } {
  return typeof part === 'object' && part !== null && 'type' in part && part.type === 'text' && 'text' in part && typeof part.text === 'string';
}
