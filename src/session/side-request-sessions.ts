import { createHash } from 'node:crypto';
import type { Turn } from '../core/turn.js';
import type { SessionIdentity } from './session-identity.js';

const quotedOpening = /^User: ([\s\S]*?)\n\nAssistant: /;

/**
 * Attaches an agent's side requests to the conversation they are about. Hermes (and agents like it) sends, after
 * the first answer, a request with no tools whose only user message quotes the conversation's opening as
 * `User: <first user message>\n\nAssistant: <first answer>` (to generate a title). Fingerprinted on its own it
 * would be a second session; here it is matched, per client key, to the session whose first user message it
 * quotes. Only the shape is matched, never the side request's wording. In memory, bounded, least recently seen
 * dropped first; an instance that never saw the session leaves the side request on its own.
 */
export class SideRequestSessions {
  private readonly openings = new Map<string, string>();

  constructor(private readonly maxEntries = 10_000) {}

  /** Remembers the opening of a main request (one with tools) whose session was fingerprinted. */
  remember(turn: Turn, sessionId: string): void {
    if (turn.tools.length === 0) return;
    const first = turn.messages.find((message) => message.role === 'user')?.text;
    if (!first) return;
    const key = openingKey(turn.clientKeyId, first);
    this.openings.delete(key);
    this.openings.set(key, sessionId);
    if (this.openings.size > this.maxEntries) {
      const oldest = this.openings.keys().next().value;
      if (oldest !== undefined) this.openings.delete(oldest);
    }
  }

  /** The session a tool-less side request quoting a known opening belongs to, or undefined. */
  attach(turn: Turn): SessionIdentity | undefined {
    if (turn.tools.length > 0) return undefined;
    const users = turn.messages.filter((message) => message.role === 'user');
    if (users.length !== 1) return undefined;
    const quoted = quotedOpening.exec(users[0]?.text ?? '')?.[1];
    if (quoted === undefined) return undefined;
    const id = this.openings.get(openingKey(turn.clientKeyId, quoted));
    return id === undefined ? undefined : { id, source: 'fingerprint' };
  }
}

/**
 * A digest of the client key and the first user message, not the message itself: the map holds one entry per
 * live session (10,000 by default), and a first message can be a pasted file of many kilobytes.
 */
function openingKey(clientKeyId: string | undefined, firstUserMessage: string): string {
  return createHash('sha256').update(clientKeyId ?? '-').update('\u0000').update(firstUserMessage).digest('base64');
}
