/** The user turns a topic decision looks at, newest last. Accepts OpenAI-style messages with string or part content. */
export interface ChatMessageLike {
  role: string;
  content?: unknown;
}

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The last `limit` user turns, oldest first; the last element is the turn being classified. */
export function recentUserTurns(messages: readonly ChatMessageLike[], limit = 3): string[] {
  const turns: string[] = [];
  for (let index = messages.length - 1; index >= 0 && turns.length < limit; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'user') turns.unshift(messageText(message.content));
  }
  return turns;
}

/**
 * A short follow-up: a later user turn of at most `maxWords` words (Chinese/Thai: 12 characters), such as
 * "and in French?" or "why?". Too short to name a new subject, so it continues the current one.
 */
export function isShortFollowUp(messages: readonly ChatMessageLike[], maxWords = 5): boolean {
  const turns = recentUserTurns(messages, 2);
  if (turns.length < 2) return false;
  const current = turns[1]!.trim();
  const words = current.split(/\s+/).filter(Boolean).length;
  const unspaced = (current.match(/[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/gu) ?? []).length;
  return unspaced ? unspaced <= 12 && words <= 2 : words <= maxWords;
}
