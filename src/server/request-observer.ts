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
