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
