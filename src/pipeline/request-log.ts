import type { Logger } from 'pino';
import type { RequestRecord } from '../core/ledger-record.js';
import type { RequestObserver } from './request-observer.js';

function tokens(record: RequestRecord): string {
  if (!record.usage) return 'no usage';
  const cached = record.usage.cacheReadTokens > 0 ? ` (${record.usage.cacheReadTokens} cached)` : '';
  return `${record.usage.inputTokens}+${record.usage.outputTokens} tokens${cached}`;
}

function cost(value: number | null): string {
  if (value === null) return 'unpriced';
  return value !== 0 && Math.abs(value) < 1 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

/**
 * What the gateway is doing, on its log (stderr): one `info` line per finished request (endpoint, model asked
 * for and served, status, tokens, cost, latency, session), a `warn` for each upstream attempt that failed and
 * for a request the client saw fail with a 5xx, and at `debug` the routing decisions behind it. Reads the record
 * only; `costOf` prices it as the ledger will (the ledger prices later, off the request path).
 */
export class RequestLog implements RequestObserver {
  constructor(
    private readonly logger: Logger,
    private readonly costOf: (record: RequestRecord) => number | null,
  ) {}

  requestStarted(): void {}

  requestFinished(record: RequestRecord): void {
    const served = record.servedModel ? `${record.servedProvider ?? '?'}/${record.servedModel}` : 'not served';
    const failed = record.attempts.filter((attempt) => attempt.errorClass !== undefined || attempt.status >= 400);
    for (const [index, attempt] of failed.entries()) {
      const next = record.attempts[record.attempts.indexOf(attempt) + 1];
      const then = next ? `; failing over to ${next.provider}/${next.model}` : '';
      this.logger.warn(
        {
          requestId: record.requestId,
          provider: attempt.provider,
          model: attempt.model,
          key: attempt.keyId,
          status: attempt.status,
          errorClass: attempt.errorClass,
          error: attempt.errorMessage,
          attempt: index + 1,
        },
        `upstream ${attempt.provider}/${attempt.model} failed: ${attempt.status || 'no response'} ${attempt.errorClass ?? ''}${then}`.replace(/\s+;/, ';').trim(),
      );
    }
    const costUsd = typeof record.costUsd === 'number' ? record.costUsd : this.costOf(record);
    const session = record.sessionId ? ` session ${record.sessionId}` : '';
    const ttfb = record.timeToFirstByteMs === undefined ? '' : ` (first byte ${Math.round(record.timeToFirstByteMs)} ms)`;
    const line =
      `POST ${record.endpoint} ${record.requestedModel} → ${served} ${record.status}${record.errorClass ? ` ${record.errorClass}` : ''} ` +
      `${tokens(record)} ${cost(costUsd)} ${Math.round(record.totalMs)} ms${ttfb}${session}`;
    const fields = {
      requestId: record.requestId,
      method: 'POST',
      endpoint: record.endpoint,
      requestedModel: record.requestedModel,
      servedProvider: record.servedProvider,
      servedModel: record.servedModel,
      status: record.status,
      inputTokens: record.usage?.inputTokens,
      outputTokens: record.usage?.outputTokens,
      costUsd,
      totalMs: Math.round(record.totalMs),
      session: record.sessionId,
      attempts: record.attempts.length,
      ...(record.decision.cache?.hit ? { cacheHit: true } : {}),
    };
    if (record.status >= 500) this.logger.warn(fields, line);
    else this.logger.info(fields, line);
    if (this.logger.isLevelEnabled('debug')) {
      this.logger.debug({ requestId: record.requestId, decision: record.decision }, `routing for ${record.requestId}: ${describeDecision(record)}`);
    }
  }
}

/** The routing decisions in one sentence: session source, tool surface, model policy and candidates. */
function describeDecision(record: RequestRecord): string {
  const parts: string[] = [];
  const decision = record.decision;
  if (decision.session) parts.push(`session from ${decision.session.source}`);
  if (decision.cache) parts.push(`cache ${decision.cache.hit ? `hit (${decision.cache.kind ?? 'exact'})` : 'miss'}`);
  if (decision.tools) parts.push(`tools ${decision.tools.outcome} ${decision.tools.sentToolCount}/${decision.tools.fullToolCount} (${decision.tools.reason})`);
  if (decision.models) {
    const candidates = decision.models.candidates.map((candidate) => `${candidate.provider}/${candidate.model}`).join(', ');
    parts.push(`models by ${decision.models.policy}: ${decision.models.reason}; candidates ${candidates || 'none'}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'no routing stage ran';
}
