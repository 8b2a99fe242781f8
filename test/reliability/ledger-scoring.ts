import { join } from 'node:path';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';

/** Every row the gateway's SQLite ledger holds (after the caller flushed), oldest first. */
export async function ledgerRows(dataDir: string): Promise<RequestRecord[]> {
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  try {
    const rows: RequestRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.requests({ limit: 1000, ...(cursor ? { cursor } : {}) });
      rows.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return rows.reverse();
  } finally {
    await store.close();
  }
}

/** USD per million tokens, as configured on the test models. */
export const testPrices = { 'gpt-test': { input: 1, output: 2 }, 'big-test': { input: 10, output: 20 } } as const;

/** What a row should cost when only the attempt that served it is billed. */
export function servedOnlyCost(record: RequestRecord): number {
  const usage = record.usage;
  const prices = record.servedModel ? testPrices[record.servedModel as keyof typeof testPrices] : undefined;
  if (!usage || !prices) return 0;
  return (usage.inputTokens * prices.input + usage.outputTokens * prices.output) / 1_000_000;
}
