import type { SessionRecord } from '../store/session-record.js';
import type { SessionStore } from '../store/session-store.js';

interface Held {
  record: SessionRecord;
  /** Requests of the session in flight on this instance; the record leaves memory when the last one closes. */
  holders: number;
  /** A `checkpoint` write not yet landed; `release` waits for it so that the last write is the newest record. */
  saving?: Promise<void>;
  /** The record as the store has it (read at `open` or written by a checkpoint), `updatedAt` aside. */
  stored: string;
}

/** What a record holds, without the stamp each store write sets. */
function contentOf(record: SessionRecord): string {
  const { updatedAt: _updatedAt, ...content } = record;
  return JSON.stringify(content);
}

/**
 * The session records of the requests in flight. A request `open`s its session's record once (one store read),
 * every stage reads and edits that one object (tool surface, affinity, topic inertia, nudge, prompt-cache
 * state), `checkpoint` writes what changed early, and `release` saves it when the request ends. Concurrent
 * requests of one session share the object, so neither overwrites what the other learned. The stages that must
 * answer synchronously (model routing) find the record with `current`. Store failures never fail a request: an
 * unreadable session starts empty (fail open), an unwritable one is lost.
 */
export class SessionRecords {
  readonly #held = new Map<string, Held>();

  constructor(
    readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  async open(sessionId: string): Promise<SessionRecord> {
    const held = this.#held.get(sessionId);
    if (held) {
      held.holders += 1;
      return held.record;
    }
    const loaded = (await this.store.get(sessionId).catch(() => undefined)) ?? { updatedAt: this.now() };
    // Another request of the session may have opened it while this one waited for the store.
    const raced = this.#held.get(sessionId);
    if (raced) {
      raced.holders += 1;
      return raced.record;
    }
    this.#held.set(sessionId, { record: loaded, holders: 1, stored: contentOf(loaded) });
    return loaded;
  }

  /**
   * Writes the record now, if it changed since the store last had it, and keeps holding it: for what another
   * instance must see before this request ends. An agent answers a tool call in milliseconds and a load balancer
   * may send that next request elsewhere, while `release` comes after the whole response (and the first count of
   * a tools array). Not awaited by the caller: the write runs beside the upstream call or the answer and never
   * delays or fails the request.
   */
  checkpoint(sessionId: string): void {
    const held = this.#held.get(sessionId);
    if (!held) return;
    const content = contentOf(held.record);
    if (content === held.stored) return;
    held.stored = content;
    const earlier = held.saving ?? Promise.resolve();
    held.saving = earlier.then(() => this.store.set(sessionId, held.record)).catch(() => undefined);
  }

  /** The record of a session with a request in flight here, if any. */
  current(sessionId: string): SessionRecord | undefined {
    return this.#held.get(sessionId)?.record;
  }

  /**
   * Saves the record (once per `open`) and lets go of it. It stays in memory until the write lands, so a request of
   * the session arriving meanwhile joins it instead of reading an older copy from the store.
   */
  async release(sessionId: string): Promise<void> {
    const held = this.#held.get(sessionId);
    if (!held) return;
    if (held.saving) await held.saving;
    held.stored = contentOf(held.record);
    await this.store.set(sessionId, held.record).catch(() => undefined);
    held.holders -= 1;
    if (held.holders <= 0) this.#held.delete(sessionId);
  }

  /** The session as a request would see it: the record in flight, else the stored one (a copy either way). */
  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const held = this.#held.get(sessionId);
    return held ? structuredClone(held.record) : this.store.get(sessionId);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
