import type { SessionState } from '../../session/session-state.js';
import type { SessionStore } from '../../session/session-store.js';
import type { TopicSessionStore } from './inertia-store.js';

/**
 * The session store with the topic state read alongside: every request reads its session (tool routing does,
 * before the model is chosen), so loading the session's topic state in the same step, concurrently, brings it
 * into memory before the synchronous topic router asks, at no extra round trip of waiting.
 */
export class SessionStoreReadingTopics implements SessionStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly sessions: SessionStore,
    private readonly topics: TopicSessionStore,
  ) {}

  async get(sessionId: string): Promise<SessionState | undefined> {
    const [state] = await Promise.all([this.sessions.get(sessionId), this.topics.load(sessionId)]);
    return state;
  }

  set(sessionId: string, state: SessionState): Promise<void> {
    return this.sessions.set(sessionId, state);
  }

  close(): Promise<void> {
    return this.sessions.close();
  }
}
