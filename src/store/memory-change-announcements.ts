import type { ChangeAnnouncements } from './change-announcements.js';

/** Key-change announcements between stores in one process (tests): each member hears the others, not itself. */
export class MemoryChangeHub {
  readonly #listeners = new Set<{ member: object; listener: () => void }>();

  member(): ChangeAnnouncements {
    const member = {};
    const listeners = this.#listeners;
    return {
      specificationVersion: 'v1',
      async announce() {
        for (const entry of listeners) if (entry.member !== member) entry.listener();
      },
      subscribe(listener) {
        const entry = { member, listener };
        listeners.add(entry);
        return () => listeners.delete(entry);
      },
      async close() {
        for (const entry of listeners) if (entry.member === member) listeners.delete(entry);
      },
    };
  }
}
