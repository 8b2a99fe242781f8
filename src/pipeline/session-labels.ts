import { redactSecrets } from '../core/redact.js';
import type { Turn } from '../core/turn.js';
import { withoutAgentContext } from '../tools/agent-context.js';

/** Long enough to tell sessions apart in a table, short enough that the ledger keeps a label, not a prompt. */
export const firstPromptLength = 120;
export const titleLength = 80;

function shortened(text: string, length: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= length ? oneLine : `${oneLine.slice(0, length - 1).trimEnd()}…`;
}

/**
 * The user's first prompt, on a session's first request only (one user message, no answer yet): agent context
 * blocks removed, one line, cut to `firstPromptLength`, secrets redacted. Undefined on any later request.
 */
export function firstPromptLabel(turn: Pick<Turn, 'messages'>): string | undefined {
  const users = turn.messages.filter((message) => message.role === 'user');
  if (users.length !== 1 || turn.messages.some((message) => message.role === 'assistant' || message.role === 'tool')) return undefined;
  const text = shortened(withoutAgentContext(users[0]?.text ?? ''), firstPromptLength);
  return text === '' ? undefined : redactSecrets(text);
}

/**
 * The title an agent's side request generated (its whole answer): one line, surrounding quotes and markdown
 * emphasis removed, cut to `titleLength`, secrets redacted. Undefined for an empty answer.
 */
export function titleLabel(answer: string): string | undefined {
  const text = shortened(answer.replace(/^[\s#*"'“”]+|[\s*"'“”]+$/g, ''), titleLength);
  return text === '' ? undefined : redactSecrets(text);
}
