import type { GatewayError } from '../core/errors.js';
import type { Usage } from '../core/usage.js';

/** How a relayed response ended, for the ledger. */
export interface RelayOutcome {
  usage: Usage | undefined;
  /** The upstream finished cleanly ([DONE], message_stop, or a finish reason before the end). */
  completed: boolean;
  error?: GatewayError;
  /** When the upstream stream (or body) was fully read. */
  upstreamEndedAt: number;
  /** Assistant text, kept only for usage estimation and opt-in content logging. */
  responseText: string;
}
