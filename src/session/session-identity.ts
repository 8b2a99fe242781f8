import { createHash } from 'node:crypto';
import type { Turn } from '../core/turn.js';
import { isJsonObject } from '../core/json.js';

export interface SessionIdentity {
  id: string;
  source: 'header' | 'body' | 'fingerprint';
}

/**
 * Which conversation a request belongs to. An explicit id wins: a header the client sent (see
 * `server/client-hints.ts` for which, in order), then the body's `session_id`, `prompt_cache_key` (Codex sets it
 * to its thread id), `user`, Anthropic `metadata.user_id` (Claude Code writes a JSON object there: its
 * `session_id` is used). Otherwise a fingerprint that stays the same as the history grows: the client key, the
 * client's full tool list (names, in order) and the first user message. Not the system prompt: Hermes rebuilds
 * it mid-session after compaction or a memory invalidation.
 */
export function resolveSessionIdentity(turn: Turn): SessionIdentity {
  if (turn.hints.sessionId) return { id: turn.hints.sessionId, source: 'header' };
  const body = turn.body;
  const fromBody =
    nonEmpty(body.session_id) ??
    nonEmpty(body.prompt_cache_key) ??
    nonEmpty(body.user) ??
    (isJsonObject(body.metadata) ? metadataUserId(body.metadata.user_id) : undefined);
  if (fromBody) return { id: fromBody.slice(0, 200), source: 'body' };
  const hash = createHash('sha256');
  hash.update(turn.clientKeyId ?? '-');
  hash.update('\u0000');
  for (const tool of turn.tools) hash.update(`${tool.name}\u0001`);
  hash.update('\u0000');
  hash.update(turn.messages.find((message) => message.role === 'user')?.text ?? '');
  return { id: `fp_${hash.digest('hex').slice(0, 24)}`, source: 'fingerprint' };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Claude Code's `metadata.user_id` is JSON with a `session_id`; anything else is used as it is. */
function metadataUserId(value: unknown): string | undefined {
  const text = nonEmpty(value);
  if (text === undefined || !text.startsWith('{')) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonObject(parsed) && typeof parsed['session_id'] === 'string' && parsed['session_id'].length > 0) return parsed['session_id'];
  } catch {
    // Not JSON after all: the whole value identifies the user.
  }
  return text;
}
