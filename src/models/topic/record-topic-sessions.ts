import type { SessionRecords } from '../../session/session-records.js';
import type { TopicSessionState } from './inertia.js';
import type { TopicSessionStore } from './inertia-store.js';

/**
 * Topic inertia kept in the session record: the request that routes has the record open (loaded once, before
 * routing), so the synchronous topic router reads and writes it in memory and the record's one save carries it.
 */
export class RecordTopicSessions implements TopicSessionStore {
  readonly specificationVersion = 'v1' as const;

  constructor(private readonly records: Pick<SessionRecords, 'current'>) {}

  get(sessionId: string): TopicSessionState | undefined {
    return this.records.current(sessionId)?.topic;
  }

  set(sessionId: string, state: TopicSessionState): void {
    const record = this.records.current(sessionId);
    if (record) record.topic = state;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }
}
