import { describeLedgerStoreContract } from '../ledger-store.contract.js';
import { MemoryLedgerStore } from './memory-ledger-store.js';

describeLedgerStoreContract('memory', () => new MemoryLedgerStore());
