import pino from 'pino';
import type { Logger } from 'pino';
import { redactJson } from '../core/redact.js';

/** Fields that carry error text (ours or a provider's) in the gateway's log lines. */
const textFields = ['error', 'reason', 'message', 'detail', 'errorMessage'] as const;

/**
 * A child of `logger` whose error fields go through secret redaction: an upstream error message (which may echo
 * a provider key) reaches a log line through `err`/`error`, so those are serialized redacted. Pino's own
 * `redact` option only knows field paths, not values.
 */
export function withSecretRedaction(logger: Logger): Logger {
  const serializers: Record<string, (value: unknown) => unknown> = {
    err: (value: unknown) => redactJson(value instanceof Error ? pino.stdSerializers.err(value) : value),
  };
  for (const field of textFields) serializers[field] = (value: unknown) => redactJson(value instanceof Error ? pino.stdSerializers.err(value) : value);
  return logger.child({}, { serializers });
}
