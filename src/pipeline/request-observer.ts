import type { RequestRecord } from '../core/ledger-record.js';

/**
 * Who hears about requests: the ledger and the metrics. Called on the request path, so implementations must
 * return at once and never throw (they queue and do their work later).
 */
export interface RequestObserver {
  requestStarted(): void;
  /** `estimateFrom` carries text for usage estimation when the provider reported none; never stored by default. */
  requestFinished(record: RequestRecord, estimateFrom?: { requestText: string; responseText: string }): void;
}

/**
 * Closes a row that carries no text to estimate from (embeddings, the semantic cache's lookups): its total and
 * overhead times, then every observer; one observer failing never keeps the others from hearing.
 */
export function reportFinished(
  observers: readonly RequestObserver[],
  logger: { error(details: object, message: string): void },
  record: RequestRecord,
  monotonicStart: number,
): void {
  record.totalMs = performance.now() - monotonicStart;
  record.overheadMs = Math.max(0, record.totalMs - record.attempts.reduce((total, attempt) => total + attempt.durationMs, 0));
  for (const observer of observers) {
    try {
      observer.requestFinished(record);
    } catch (error) {
      logger.error({ err: error }, 'a request observer failed');
    }
  }
}
