import { describeChangeAnnouncementsContract } from './change-announcements.contract.js';
import { MemoryChangeHub } from './memory-change-announcements.js';

describeChangeAnnouncementsContract('memory', async () => {
  const hub = new MemoryChangeHub();
  return [hub.member(), hub.member(), hub.member()];
});
