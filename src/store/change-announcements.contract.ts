import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ChangeAnnouncements } from './change-announcements.js';

/** Three instances' announcers over the same, fresh channel. */
export type ChangeAnnouncementsFactory = () => Promise<[ChangeAnnouncements, ChangeAnnouncements, ChangeAnnouncements]>;

/** Counts announcements a member hears. */
function listen(changes: ChangeAnnouncements): { heard: () => number; stop: () => void } {
  let count = 0;
  const stop = changes.subscribe(() => (count += 1));
  return { heard: () => count, stop };
}

/** The behaviour every `ChangeAnnouncements` must have (memory hub, Redis pub/sub). */
export function describeChangeAnnouncementsContract(name: string, factory: ChangeAnnouncementsFactory): void {
  describe(`ChangeAnnouncements contract: ${name}`, () => {
    it('an announcement reaches every other member, never the announcer', async () => {
      const members = await factory();
      const [first, second, third] = members;
      try {
        const [onFirst, onSecond, onThird] = [listen(first), listen(second), listen(third)];
        await first.announce();
        await expect.poll(() => [onSecond.heard(), onThird.heard()], { timeout: 15_000, interval: 5 }).toEqual([1, 1]);
        // Give a wrongly delivered self-announcement time to arrive before saying it did not.
        await sleep(50);
        expect(onFirst.heard()).toBe(0);
      } finally {
        await Promise.all(members.map((member) => member.close()));
      }
    });

    it('stops delivering after unsubscribe and after close', async () => {
      const members = await factory();
      const [first, second, third] = members;
      try {
        const onSecond = listen(second);
        const onThird = listen(third);
        onSecond.stop();
        await third.close();
        await first.announce();
        await sleep(100);
        expect([onSecond.heard(), onThird.heard()]).toEqual([0, 0]);
      } finally {
        await Promise.all(members.map((member) => member.close()));
      }
    });
  });
}
