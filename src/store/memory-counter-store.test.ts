import { describeCounterStoreContract } from './counter-store.contract.js';
import { MemoryCounterStore } from './memory-counter-store.js';

describeCounterStoreContract('memory', ({ now }) => new MemoryCounterStore(now));
