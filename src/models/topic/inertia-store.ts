import type { TopicSessionState } from './inertia.js';

/**
 * Where per-session topic state (inertia) lives between turns (version 1). `get` and `set` are synchronous
 * because the topic router runs inside the synchronous model routing; a shared implementation answers from
 * memory and brings a session's state in beforehand with `load`.
 */
export interface TopicSessionStore {
  readonly specificationVersion: 'v1';
  get(sessionId: string): TopicSessionState | undefined;
  set(sessionId: string, state: TopicSessionState): void;
  /**
   * Brings the session's shared state into memory so the next `get` answers with it. Never rejects (a store
   * that cannot read keeps what it knows); the memory store has nothing to do.
   */
  load(sessionId: string): Promise<void>;
}

/** In-process store, bounded: the oldest session is forgotten first (a forgotten session starts at `none`). */
export class MemoryTopicSessions implements TopicSessionStore {
  readonly specificationVersion = 'v1' as const;
  private readonly states = new Map<string, TopicSessionState>();

  constructor(private readonly maxSessions = 50_000) {}

  get(sessionId: string): TopicSessionState | undefined {
    return this.states.get(sessionId);
  }

  set(sessionId: string, state: TopicSessionState): void {
    this.states.delete(sessionId);
    this.states.set(sessionId, state);
    if (this.states.size > this.maxSessions) this.states.delete(this.states.keys().next().value!);
  }

  load(): Promise<void> {
    return Promise.resolve();
  }
}
