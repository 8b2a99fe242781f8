import { describeBudgetCounterStoreContract } from '../budget-counter-store.contract.js';
import { MemoryBudgetCounterStore } from './memory-budget-counter-store.js';

describeBudgetCounterStoreContract('memory', () => new MemoryBudgetCounterStore());
