import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { RequestRecord } from '../core/ledger-record.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { type LedgerConfig, type LedgerConfigInput, ledgerConfigSchema } from '../config/ledger.js';
import { loadO200kYielding, o200kLoaded } from '../classify/text/o200k.js';
import { type EstimateSource, estimateUsage } from './estimate-usage.js';
import { type LedgerLogger, silentLogger } from './ledger-logger.js';
import type { GatewayMetrics } from './metrics.js';
import { type RecordPricingOptions, priceRecord } from './price-record.js';
import type { PriceOverrides } from '../catalog/prices/price-override.js';

export interface LedgerOptions {
  store: LedgerStore;
  /** The `ledger:` config section, raw or parsed. */
  config?: LedgerConfigInput;
  metrics?: GatewayMetrics;
  logger?: LedgerLogger;
  /** Config provider id → provider kind, so `work-openai` is priced from OpenAI's list. */
  providerKinds?: Readonly<Record<string, string>>;
  /** Prices configured elsewhere (provider model entries); `ledger.prices` wins over them. */
  priceOverrides?: PriceOverrides;
  /** `provider/model` → upstream model name (`deploymentUpstreamModels`), so the catalogue sees the billed name. */
  upstreamModels?: Readonly<Record<string, string>>;
  /** Whether `close()` also closes the store. */
  ownsStore?: boolean;
}

interface PendingEntry {
  record: RequestRecord;
  estimateFrom: EstimateSource | undefined;
}

function needsEstimate({ record, estimateFrom }: PendingEntry): boolean {
  return record.usage === undefined && estimateFrom !== undefined;
}

/** Longest slice of the event loop one round of preparing records may take before yielding. */
const preparationSliceMs = 4;
const maximumRetryDelayMs = 30_000;
const warningIntervalMs = 30_000;

/**
 * Records every finished request without slowing it down.
 *
 * `record()` only appends to an array and schedules work; estimation (tokenizer), pricing and metrics run a tick
 * later in slices of a few milliseconds, and rows are written every `flush_interval_ms` in one transaction per
 * `max_batch_size` rows, yielding to the event loop between transactions. A crash therefore loses at most the
 * rows of the last interval.
 *
 * When the store fails, rows stay queued (oldest first) and the write is retried with exponential backoff
 * (interval × 2^failures, at most 30 s). The queue holds at most `max_queued_records` rows; beyond that the
 * oldest rows not being written are dropped, logged and counted in `hermes_router_ledger_dropped_total`, so a
 * dead disk costs the ledger rows, never the gateway its memory.
 */
export class Ledger {
  readonly config: LedgerConfig;
  readonly #store: LedgerStore;
  readonly #metrics: GatewayMetrics | undefined;
  readonly #logger: LedgerLogger;
  #pricing: RecordPricingOptions;
  readonly #ownsStore: boolean;
  readonly #timer: NodeJS.Timeout;
  #pending: PendingEntry[] = [];
  #preparationScheduled = false;
  /** Prepared rows waiting for the store, oldest first. */
  #queue: RequestRecord[] = [];
  /** Rows handed to the store and not yet confirmed. */
  #writingCount = 0;
  #flushChain: Promise<void> = Promise.resolve();
  #consecutiveFailures = 0;
  #retryAt = 0;
  #droppedSinceWarning = 0;
  #droppedTotal = 0;
  #failingSince = 0;
  #lastError = '';
  #lastDropWarning = 0;
  #closed = false;
  #tokenizerLoad: Promise<void> | undefined;
  #tokenizerSettled = false;
  #closing: Promise<void> | undefined;
  readonly #warnedUnpriced = new Set<string>();

  /** Where rows go; a single instance also starts its per-key daily totals from it. */
  get store(): LedgerStore {
    return this.#store;
  }

  constructor(options: LedgerOptions) {
    this.config = ledgerConfigSchema.parse(options.config ?? {});
    this.#store = options.store;
    this.#metrics = options.metrics;
    this.#logger = options.logger ?? silentLogger;
    this.#ownsStore = options.ownsStore ?? false;
    this.#pricing = {
      overrides: { ...options.priceOverrides, ...this.config.prices },
      ...(options.providerKinds ? { providerKinds: options.providerKinds } : {}),
      ...(options.upstreamModels ? { upstreamModels: options.upstreamModels } : {}),
    };
    this.#timer = setInterval(() => {
      if (Date.now() >= this.#retryAt) void this.flush();
    }, this.config.flush_interval_ms);
    // The timer must not keep a finished process alive; shutdown calls close(), which flushes.
    this.#timer.unref();
  }

  /** A reloaded config's prices and upstream names, for the rows priced from now on. */
  reprice(options: Pick<LedgerOptions, 'priceOverrides' | 'providerKinds' | 'upstreamModels'> & { prices?: LedgerConfig['prices'] }): void {
    this.#pricing = {
      overrides: { ...options.priceOverrides, ...(options.prices ?? this.config.prices) },
      ...(options.providerKinds ? { providerKinds: options.providerKinds } : {}),
      ...(options.upstreamModels ? { upstreamModels: options.upstreamModels } : {}),
    };
  }

  /** Rows accepted and not yet confirmed written (pending preparation, queued, or being written). */
  get backlog(): number {
    return this.#pending.length + this.#queue.length + this.#writingCount;
  }

  /**
   * What is wrong with the ledger, for `/health`: undefined while writes succeed (or nothing was written yet).
   * A store that fails (a corrupted file, a full disk) keeps serving; this is how anyone notices.
   */
  health(): string | undefined {
    if (this.#consecutiveFailures === 0) return undefined;
    return (
      `ledger writes failing since ${new Date(this.#failingSince).toISOString()} (${this.#consecutiveFailures} attempts): ${this.#lastError}; ` +
      `${this.backlog} rows waiting (at most ledger.max_queued_records = ${this.config.max_queued_records}, then ` +
      `${this.config.when_full === 'refuse' ? 'new requests are refused' : 'the oldest are dropped'}), ${this.#droppedTotal} dropped`
    );
  }

  /** With `when_full: refuse`, why new requests must be refused now (the queue is full), else undefined. */
  refusal(): string | undefined {
    if (this.config.when_full !== 'refuse' || this.backlog < this.config.max_queued_records) return undefined;
    return `The ledger cannot write (${this.#lastError || 'store failing'}) and its queue is full (ledger.max_queued_records = ${this.config.max_queued_records}); requests are refused until it can write, so none goes unrecorded.`;
  }

  /** For the server's request observer: a request began (in-flight gauge). */
  requestStarted(): void {
    this.#metrics?.startRequest();
  }

  /** For the server's request observer: a request ended; same as `record`, plus the in-flight gauge. */
  requestFinished(record: RequestRecord, estimateFrom?: EstimateSource): void {
    this.#metrics?.endRequest();
    this.record(record, estimateFrom);
  }

  /**
   * Accepts one finished request. Returns at once and never throws. `costUsd` is computed here unless the caller
   * passes a number (a provider-reported cost); `estimateFrom` is used only when `usage` is missing.
   */
  record(record: RequestRecord, estimateFrom?: EstimateSource): void {
    try {
      if (this.#closed) {
        this.#logger.warn({ requestId: record.requestId }, 'ledger closed; request not recorded');
        return;
      }
      // A copy, so later changes by the caller do not reach the row; content is left out unless it is stored.
      const { content, ...copy } = record;
      this.#pending.push({ record: this.config.store_content && content !== undefined ? { ...copy, content } : copy, estimateFrom });
      if (!this.#preparationScheduled) {
        this.#preparationScheduled = true;
        setImmediate(() => this.#prepareSlice());
      }
    } catch (error) {
      this.#logger.error({ err: error }, 'ledger failed to accept a request');
    }
  }

  /** Writes everything accepted so far. Resolves when written, or when the store failed (rows stay queued). */
  flush(): Promise<void> {
    // The chain never rejects: a rejected link would skip every later flush and, from the timer, end the process.
    this.#flushChain = this.#flushChain.then(() =>
      this.#flushOnce().catch((error: unknown) => this.#logger.error({ err: error }, 'ledger flush failed')),
    );
    return this.#flushChain;
  }

  /** Stops the timer, writes what is queued (one attempt), and closes the store when the ledger owns it. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.flush();
    if (this.#queue.length > 0) {
      this.#logger.error({ rows: this.#queue.length }, 'ledger closed with rows the store would not take; they are lost');
    }
    if (this.#ownsStore) await this.#store.close();
  }

  #prepareSlice(): void {
    // An estimate needs the tokenizer: its first load (a quarter of a second) goes in slices that yield, and
    // preparation resumes when it is in, so no row's estimate holds the event loop for the load.
    const tokenizer = this.#tokenizerWait();
    if (tokenizer) {
      void tokenizer.then(() => this.#prepareSlice());
      return;
    }
    const started = performance.now();
    const batch = this.#pending;
    this.#pending = [];
    let index = 0;
    for (const entry of batch) {
      if (index > 0 && performance.now() - started >= preparationSliceMs) break;
      this.#prepareOne(entry);
      index += 1;
    }
    if (index < batch.length) {
      this.#pending = batch.slice(index).concat(this.#pending);
      setImmediate(() => this.#prepareSlice());
    } else {
      this.#preparationScheduled = false;
    }
    this.#enforceBound();
    this.#metrics?.setLedgerQueueLength(this.#queue.length + this.#writingCount);
  }

  /**
   * A promise while the tokenizer loads (in slices that yield) for a pending row's estimate; undefined when no row
   * needs it, it is in, or its one load settled (should it fail, each estimate fails on its own: cost unknown).
   */
  #tokenizerWait(): Promise<void> | undefined {
    if (this.#tokenizerSettled || o200kLoaded() || !this.config.estimate_missing_usage || !this.#pending.some(needsEstimate)) return undefined;
    this.#tokenizerLoad ??= loadO200kYielding()
      .catch(() => undefined)
      .finally(() => {
        this.#tokenizerSettled = true;
      });
    return this.#tokenizerLoad;
  }

  #prepareAll(): void {
    const batch = this.#pending;
    this.#pending = [];
    for (const entry of batch) this.#prepareOne(entry);
    this.#enforceBound();
  }

  #prepareOne({ record, estimateFrom }: PendingEntry): void {
    try {
      if (record.usage === undefined && estimateFrom !== undefined && this.config.estimate_missing_usage) {
        record.usage = estimateUsage(estimateFrom);
        record.usageEstimated = true;
      }
      if (typeof record.costUsd !== 'number') {
        const price = priceRecord(record, this.#pricing);
        record.costUsd = price.costUsd;
        if (price.costUsd === null && price.source !== 'unpriced:no-usage') this.#warnUnpriced(record, price.source);
      }
      if (this.config.store_content && record.content === undefined && estimateFrom !== undefined) {
        record.content = { request: estimateFrom.requestText, response: estimateFrom.responseText };
      }
      this.#metrics?.observe(record);
    } catch (error) {
      // A record the ledger cannot prepare is still stored as it came; its cost stays unknown.
      if (typeof record.costUsd !== 'number') record.costUsd = null;
      this.#logger.error({ err: error, requestId: record.requestId }, 'ledger failed to prepare a request');
    }
    this.#queue.push(record);
  }

  #warnUnpriced(record: RequestRecord, source: string): void {
    const key = `${record.servedProvider ?? ''}/${record.servedModel ?? record.requestedModel}`;
    if (this.#warnedUnpriced.has(key) || this.#warnedUnpriced.size > 1000) return;
    this.#warnedUnpriced.add(key);
    this.#logger.warn(
      { model: key, reason: source },
      `no price for ${key}; its cost is recorded as unknown. Add it under ledger.prices to price it`,
    );
  }

  #enforceBound(): void {
    const excess = this.#queue.length + this.#writingCount - this.config.max_queued_records;
    if (excess <= 0) return;
    const dropped = Math.min(excess, this.#queue.length);
    this.#queue.splice(0, dropped);
    this.#droppedTotal += dropped;
    this.#metrics?.ledgerDropped(dropped);
    this.#droppedSinceWarning += dropped;
    const now = Date.now();
    if (now - this.#lastDropWarning >= warningIntervalMs) {
      this.#logger.error(
        { dropped: this.#droppedSinceWarning, limit: this.config.max_queued_records },
        'ledger queue full while the store is failing; oldest rows dropped',
      );
      this.#lastDropWarning = now;
      this.#droppedSinceWarning = 0;
    }
  }

  async #flushOnce(): Promise<void> {
    await this.#tokenizerWait();
    this.#prepareAll();
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.config.max_batch_size);
      this.#writingCount = batch.length;
      const started = performance.now();
      try {
        await this.#store.insertBatch(batch);
      } catch (error) {
        this.#writingCount = 0;
        this.#queue.unshift(...batch);
        this.#enforceBound();
        this.#recordFailure(error);
        return;
      } finally {
        this.#metrics?.setLedgerQueueLength(this.#queue.length);
      }
      this.#writingCount = 0;
      this.#metrics?.ledgerFlushed(batch.length, (performance.now() - started) / 1000);
      if (this.#consecutiveFailures > 0) {
        this.#logger.info({ failures: this.#consecutiveFailures }, 'ledger store recovered');
        this.#consecutiveFailures = 0;
        this.#retryAt = 0;
      }
      // A synchronous store (SQLite) holds the event loop for a whole transaction: let requests run between two.
      if (this.#queue.length > 0) await yieldToEventLoop();
    }
  }

  #recordFailure(error: unknown): void {
    if (this.#consecutiveFailures === 0) this.#failingSince = Date.now();
    this.#lastError = error instanceof Error ? error.message : String(error);
    this.#consecutiveFailures += 1;
    this.#metrics?.ledgerFlushFailed();
    const delay = Math.min(this.config.flush_interval_ms * 2 ** this.#consecutiveFailures, maximumRetryDelayMs);
    this.#retryAt = Date.now() + delay;
    // Log the first failure and then about once per maximum delay, not once per retry.
    if (this.#consecutiveFailures === 1 || delay === maximumRetryDelayMs) {
      this.#logger.error(
        { err: error, failures: this.#consecutiveFailures, queued: this.#queue.length, retryInMs: delay },
        'ledger store write failed; rows kept and retried',
      );
    }
  }
}
