import type { RequestRecord } from '../core/ledger-record.js';
import type { InsightConfig } from '../config/insight.js';
import type { NudgeLevel, NudgeSessionState } from '../store/session-record.js';
import { MemoryNudgeSessionStates } from './nudge-session-states.js';
import type { NudgeSessionStates } from './nudge-session-states.js';

export type { NudgeLevel } from '../store/session-record.js';

export interface NudgeDecision {
  level: NudgeLevel;
  fill: number;
  note: string;
}

export interface ContextNudgeOptions {
  config: InsightConfig['nudge'];
  /** The served model's real context window; undefined when unknown (then nothing fires: no assumed size). */
  contextWindow: (provider: string | undefined, model: string) => number | undefined;
  /** True when the client's own compression is known healthy for this session (Hermes: state.db fields). */
  compressionHealthy?: (sessionId: string) => boolean | undefined;
  /** Where session fills live; a bounded map of `maxSessions` (default 100,000) when absent. */
  states?: NudgeSessionStates;
  maxSessions?: number;
  now?: () => number;
}

/**
 * The context nudge (off by default). It watches finished requests (as a `RequestObserver`) for the latest
 * provider-reported prompt size of each session, and before the next request of a session whose prompt fills
 * ≥ `first_at` of the served model's window it returns a one-line note for the system prompt; once more at
 * ≥ `escalate_at`. Each level fires once per session and is never re-armed, so a session that compacts and
 * grows again stays quiet. Editing the system prompt costs the prompt cache once for that request, which is
 * why it fires at most twice per session.
 */
export class ContextNudge {
  readonly #sessions: NudgeSessionStates;
  readonly #options: ContextNudgeOptions;

  constructor(options: ContextNudgeOptions) {
    this.#options = options;
    this.#sessions = options.states ?? new MemoryNudgeSessionStates(options.maxSessions ?? 100_000);
  }

  enabledFor(clientKeyId: string | undefined): boolean {
    const config = this.#options.config;
    return config.enabled || (clientKeyId !== undefined && config.client_keys.includes(clientKeyId));
  }

  requestStarted(): void {}

  /** Remembers the latest successful prompt size per session (not a cumulative total). */
  requestFinished(record: RequestRecord): void {
    if (record.sessionId === undefined || record.status >= 400 || record.usage === undefined || record.usageEstimated) return;
    const existing = this.#sessions.get(record.sessionId);
    this.#sessions.set(record.sessionId, {
      promptTokens: record.usage.inputTokens,
      ...(record.servedProvider === undefined ? {} : { provider: record.servedProvider }),
      ...(record.servedModel === undefined ? {} : { model: record.servedModel }),
      sent: existing?.sent ?? [],
      seenAt: this.#options.now?.() ?? Date.now(),
    });
  }

  /** The note to add to this session's next request, if one is due; marks it sent. */
  decide(sessionId: string | undefined, clientKeyId: string | undefined): NudgeDecision | undefined {
    if (sessionId === undefined || !this.enabledFor(clientKeyId)) return undefined;
    const session = this.#sessions.get(sessionId);
    if (session === undefined || session.model === undefined) return undefined;
    const window = this.#options.contextWindow(session.provider, session.model);
    if (window === undefined || window <= 0) return undefined;
    if (this.#options.compressionHealthy?.(sessionId) === true) return undefined;
    const fill = session.promptTokens / window;
    const config = this.#options.config;
    let level: NudgeLevel | undefined;
    if (fill >= config.escalate_at && !session.sent.includes('escalated')) level = 'escalated';
    else if (fill >= config.first_at && !session.sent.includes('first') && !session.sent.includes('escalated')) level = 'first';
    if (level === undefined) return undefined;
    const sent: NudgeLevel[] = level === 'escalated' ? ['first', 'escalated'] : [...session.sent, 'first'];
    this.#sessions.set(sessionId, { ...session, sent });
    const percent = Math.round(fill * 100);
    const note =
      level === 'first'
        ? `[hermes-router] context ~${percent}% full; consider compacting.`
        : `[hermes-router] context ~${percent}% full; compact now or start a new session before it overflows.`;
    return { level, fill, note };
  }
}

// Shared with the topic persona; kept exported here for the callers that import it from the nudge.
export { addNoteToSystemPrompt } from '../wire/system-prompt.js';
