import type { LedgerTotals } from '../store/ledger-store.js';
import type { Column } from './report-table.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return integer.format(value);
}

/** Dollars with cents, or four decimals under a dollar so small requests do not all read $0.00. */
export function formatUsd(value: number): string {
  return value !== 0 && Math.abs(value) < 1 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

/** A `*` marks a cost that leaves out unpriced requests; a row with nothing priced reads `unpriced`. */
export function formatCost(totals: Pick<LedgerTotals, 'costUsd' | 'unpricedRequests' | 'requests'>): string {
  if (totals.unpricedRequests > 0 && totals.unpricedRequests === totals.requests) return 'unpriced *';
  return `${formatUsd(totals.costUsd)}${totals.unpricedRequests > 0 ? ' *' : ''}`;
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${integer.format(Math.round(value))}`;
}

/** `YYYY-MM-DD HH:MM:SS` at the report's offset. */
export function formatTime(epochMs: number, utcOffsetMinutes: number): string {
  return new Date(epochMs + utcOffsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The share of input tokens read from a provider's prompt cache (input tokens include the cached ones). */
export function cacheReadShare(totals: { inputTokens: number; cacheReadTokens: number }): number {
  return totals.inputTokens === 0 ? 0 : totals.cacheReadTokens / totals.inputTokens;
}

export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** One line on prompt caching: what share of input was read from the cache, and how much was written. */
export function promptCacheLine(totals: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): string {
  return `Prompt cache: ${formatShare(cacheReadShare(totals))} of ${formatCount(totals.inputTokens)} input tokens read from the cache, ${formatCount(totals.cacheWriteTokens)} written.`;
}

/** One line on tool-surface changes: how many, the prompt tokens they wrote again and what that cost. */
export function surfaceChangeLine(changes: { changes: number; cacheWriteTokens: number; costUsd: number; unpricedChanges: number }): string {
  const unpriced = changes.unpricedChanges > 0 ? ` (+${formatCount(changes.unpricedChanges)} unpriced)` : '';
  return `Tool-surface changes: ${formatCount(changes.changes)}, cost ${formatUsd(changes.costUsd)}${unpriced} (${formatCount(changes.cacheWriteTokens)} tokens written to the cache again).`;
}

/** The columns every aggregate report shares, after its own key columns. */
export function totalsColumns<Row extends LedgerTotals>(): Column<Row>[] {
  return [
    { header: 'Requests', align: 'right', dropOrder: 0, cell: (row) => formatCount(row.requests) },
    { header: 'Failed', align: 'right', dropOrder: 2, cell: (row) => formatCount(row.failedRequests) },
    { header: 'Input', align: 'right', cell: (row) => formatCount(row.inputTokens) },
    { header: 'Output', align: 'right', cell: (row) => formatCount(row.outputTokens) },
    { header: 'Cache read', align: 'right', dropOrder: 1, cell: (row) => formatCount(row.cacheReadTokens) },
    { header: 'Cache write', align: 'right', dropOrder: 3, cell: (row) => formatCount(row.cacheWriteTokens) },
    { header: 'Read %', align: 'right', dropOrder: 1, cell: (row) => formatShare(cacheReadShare(row)) },
    { header: 'Reasoning', align: 'right', dropOrder: 4, cell: (row) => formatCount(row.reasoningTokens) },
    { header: 'Cost (USD)', align: 'right', cell: formatCost },
  ];
}

/** Footnotes for the markers a table used. */
export function totalsFootnotes(totals: LedgerTotals): string {
  const notes: string[] = [];
  if (totals.unpricedRequests > 0) {
    notes.push(
      `* ${formatCount(totals.unpricedRequests)} request(s) have no known price and are not in the cost; add their models under ledger.prices.`,
    );
  }
  if (totals.estimatedRequests > 0) {
    notes.push(`${formatCount(totals.estimatedRequests)} request(s) reported no usage; their tokens are estimated.`);
  }
  return notes.length === 0 ? '' : `\n${notes.join('\n')}\n`;
}
