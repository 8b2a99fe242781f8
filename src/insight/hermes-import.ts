import type { RequestRecord } from '../core/ledger-record.js';
import { type PricingOptions, priceUsage } from '../catalog/prices/price-usage.js';
import type { HermesUsageRow } from './hermes-state.js';
import { viaGateway } from './hermes-state.js';

/** The ledger endpoint of imported rows: they are session totals, not requests, and quality skips their fill. */
export const hermesImportEndpoint = 'hermes-state-import';

export interface HermesImportPlan {
  records: RequestRecord[];
  /** Rows whose base URL is the gateway: already in the ledger from the gateway itself. */
  skippedViaGateway: number;
  /** Sessions still open: their totals will grow, so they are imported once they end. */
  skippedRunning: number;
  skippedEmpty: number;
}

/**
 * Ledger rows for Hermes usage that did not pass through the gateway: one row per (ended session, model,
 * provider, base URL), session id `hermes:<id>`. Request ids are derived from those keys, so importing again
 * adds nothing twice (the store ignores a request id it already has).
 */
export function planHermesImport(rows: readonly HermesUsageRow[], gatewayUrls: readonly string[]): HermesImportPlan {
  const plan: HermesImportPlan = { records: [], skippedViaGateway: 0, skippedRunning: 0, skippedEmpty: 0 };
  const seen = new Map<string, number>();
  const ordered = [...rows].sort(
    (left, right) =>
      left.sessionId.localeCompare(right.sessionId) ||
      left.model.localeCompare(right.model) ||
      (left.billingProvider ?? '').localeCompare(right.billingProvider ?? '') ||
      (left.billingBaseUrl ?? '').localeCompare(right.billingBaseUrl ?? ''),
  );
  for (const row of ordered) {
    if (viaGateway(row.billingBaseUrl, gatewayUrls)) {
      plan.skippedViaGateway += 1;
      continue;
    }
    if (row.endedAt === null) {
      plan.skippedRunning += 1;
      continue;
    }
    if (row.inputTokens + row.outputTokens === 0) {
      plan.skippedEmpty += 1;
      continue;
    }
    const key = `hermes:${row.sessionId}:${row.model}:${row.billingProvider ?? ''}:${row.billingBaseUrl ?? ''}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const record: RequestRecord = {
      requestId: occurrence === 0 ? key : `${key}#${occurrence}`,
      startedAt: row.startedAt,
      sessionId: `hermes:${row.sessionId}`,
      clientKeyId: 'hermes-import',
      inboundFormat: 'openai-chat',
      endpoint: hermesImportEndpoint,
      requestedModel: row.model,
      servedProvider: row.billingProvider ?? 'hermes',
      servedModel: row.model,
      status: 200,
      streaming: true,
      totalMs: Math.max((row.endedAt ?? row.startedAt) - row.startedAt, 0),
      overheadMs: 0,
      usage: {
        inputTokens: row.inputTokens,
        outputTokens: row.outputTokens,
        cacheReadTokens: row.cacheReadTokens,
        cacheWriteTokens: row.cacheWriteTokens,
        reasoningTokens: row.reasoningTokens,
      },
      usageEstimated: false,
      // Hermes's own figure (actual, else its estimate); unpriced rather than $0 when it has none.
      costUsd: row.costUsd,
      decision: {},
      attempts: [],
    };
    plan.records.push(record);
  }
  return plan;
}

/**
 * Prices imported rows Hermes left without a cost, as the gateway would price the same model: under the row's
 * own provider first (the catalogue knows OpenRouter, Anthropic…), else under any configured provider whose
 * model entry has that id (Hermes's provider id rarely matches the config's: `openrouter` vs `work-openrouter`),
 * so the CLI and the dashboard show one number instead of "unpriced" here and $0.00 there. Rows still unpriced
 * stay null. Returns how many rows got a price.
 */
export function priceHermesRecords(records: RequestRecord[], pricing: PricingOptions): number {
  let priced = 0;
  const overrideProviders = Object.keys(pricing.overrides ?? {});
  for (const record of records) {
    if (record.costUsd !== null || record.usage === undefined) continue;
    const model = record.servedModel ?? record.requestedModel;
    const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
    const providers = [
      record.servedProvider ?? 'hermes',
      ...overrideProviders.filter((key) => key === model || key.endsWith(`/${model}`) || key.endsWith(`/${bare}`)).map((key) => key.split('/')[0] ?? key),
    ];
    for (const provider of providers) {
      for (const name of [model, bare]) {
        const result = priceUsage(provider, name, record.usage, { ...pricing, at: new Date(record.startedAt) });
        if (result.costUsd !== null) {
          record.costUsd = result.costUsd;
          break;
        }
      }
      if (record.costUsd !== null) break;
    }
    if (record.costUsd !== null) priced += 1;
  }
  return priced;
}
