import { z } from 'zod';

const priceOverrideSchema = z
  .object({
    input: z.number().nonnegative().describe('USD per million input tokens (uncached)'),
    output: z.number().nonnegative().describe('USD per million output tokens'),
    cache_read: z.number().nonnegative().optional().describe('USD per million cache-read tokens; input price if absent'),
    cache_write: z.number().nonnegative().optional().describe('USD per million cache-write tokens; input price if absent'),
  })
  .strict();

/**
 * The `ledger:` section. Every field has a default, so `ledger: {}` (or no section) is valid.
 *
 * `flush_interval_ms` is also the crash bound: a killed gateway loses at most the requests that finished in the
 * last interval (plus any still queued because the store was failing).
 */
export const ledgerConfigSchema = z
  .object({
    flush_interval_ms: z.number().int().min(10).max(1_000).default(500),
    /** Store request and response bodies with each row. Off by default: the ledger keeps no prompt text. */
    store_content: z.boolean().default(false),
    /**
     * Keep what makes a session recognisable in reports and on the dashboard: the agent, its first prompt (120
     * characters, one line) and the title its agent generated (80), secrets redacted. Off: only ids and numbers.
     */
    session_labels: z.boolean().default(true),
    /** SQLite file: a name inside the data directory, or an absolute path. */
    database: z.string().min(1).default('ledger.sqlite'),
    /** Rows kept in memory while the store is failing; beyond it the oldest are dropped (and counted). */
    max_queued_records: z.number().int().min(100).max(1_000_000).default(10_000),
    /**
     * When the queue is full because the store fails: `drop_oldest` keeps serving and loses the oldest rows
     * (counted); `refuse` answers new chat requests 503 instead, so no request goes unrecorded (unbilled).
     */
    when_full: z.enum(['drop_oldest', 'refuse']).default('drop_oldest'),
    /**
     * Rows per transaction; a longer queue is written as several transactions in the same flush, with the event
     * loop free between them. SQLite writes on the gateway's thread, so this bounds how long one write holds it.
     */
    max_batch_size: z.number().int().min(1).max(10_000).default(250),
    /** Estimate usage with a tokenizer when the provider reported none (marked `usage_estimated`). */
    estimate_missing_usage: z.boolean().default(true),
    /** Per-model prices: key `provider/model` for one deployment or `model` for any provider. */
    prices: z.record(z.string().min(1), priceOverrideSchema).default({}),
  })
  .strict();

export type LedgerConfigInput = z.input<typeof ledgerConfigSchema>;
export type LedgerConfig = z.output<typeof ledgerConfigSchema>;

export const defaultLedgerConfig: LedgerConfig = ledgerConfigSchema.parse({});
