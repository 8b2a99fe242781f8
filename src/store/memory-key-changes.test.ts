import { describeKeyChangesContract } from './key-changes.contract.js';
import { MemoryKeyChangeHub } from './memory-key-changes.js';

describeKeyChangesContract('memory', async () => {
  const hub = new MemoryKeyChangeHub();
  return [hub.member(), hub.member(), hub.member()];
});
