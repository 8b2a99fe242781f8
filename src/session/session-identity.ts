import { createHash } from 'node:crypto';
import type { Turn } from '../core/turn.js';
import { isJsonObject } from '../core/json.js';

export interface SessionIdentity {
  id: string;
  source: 'header' | 'body' | 'fingerprint';
}

/**
 * Which conversation a request belongs to. An explicit id wins (header, then body `session_id`/`user`/Anthropic
 * `metadata.user_id`). Otherwise a fingerprint that stays the same as the history grows: the client key, the
 * client's full tool list (names, in order) and the first user message. Not the system prompt: Hermes rebuilds
 * it mid-session after compaction or a memory invalidation.
 */
export function resolveSessionIdentity(turn: Turn): SessionIdentity {
  if (turn.hints.sessionId) return { id: turn.hints.sessionId, source: 'header' };
  const body = turn.body;
  const fromBody =
    (typeof body.session_id === 'string' && body.session_id) ||
    (typeof body.user === 'string' && body.user) ||
    (isJsonObject(body.metadata) && typeof body.metadata.user_id === 'string' && body.metadata.user_id) ||
    undefined;
  if (fromBody) return { id: fromBody, source: 'body' };
  const hash = createHash('sha256');
  hash.update(turn.clientKeyId ?? '-');
  hash.update('\u0000');
  for (const tool of turn.tools) hash.update(`${tool.name}\u0001`);
  hash.update('\u0000');
  hash.update(turn.messages.find((message) => message.role === 'user')?.text ?? '');
  return { id: `fp_${hash.digest('hex').slice(0, 24)}`, source: 'fingerprint' };
}
