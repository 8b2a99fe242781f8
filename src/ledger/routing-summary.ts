import type { RequestRecord } from '../core/ledger-record.js';
import { failedOver } from '../core/ledger-record.js';
import type { LedgerFilter, LedgerStore } from '../store/ledger-store.js';

export interface ToolRoutingSummary {
  requests: number;
  /** Requests that carried tools. */
  withTools: number;
  byOutcome: Record<string, number>;
  byReason: Record<string, number>;
  byMode: Record<string, number>;
  /** How often each toolset was on a routed surface. */
  toolsets: Record<string, number>;
  recoveries: number;
  requestsWithRecovery: number;
  /** Tokens billed for the upstream answers recoveries replaced (the ledger's usage has them, the client's not). */
  recoveryOverheadTokens: number;
  fullSchemaTokens: number;
  sentSchemaTokens: number;
  /** 1 − sent/full over requests whose counts are known. */
  reduction: number;
}

export interface ModelRoutingSummary {
  byPolicy: Record<string, number>;
  byServedModel: Record<string, number>;
  failovers: number;
  /** Requests whose chain's `max_price` dropped fallbacks, how many of them nothing served, and which were dropped. */
  priceCapped: { requests: number; unserved: number; refusedFallbacks: Record<string, number> };
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Folds one ledger row's routing decisions into the summaries. */
function add(tools: ToolRoutingSummary, models: ModelRoutingSummary, record: RequestRecord): void {
  tools.requests += 1;
  const decision = record.decision.tools;
  if (decision && decision.fullToolCount > 0) {
    tools.withTools += 1;
    increment(tools.byOutcome, decision.outcome);
    increment(tools.byReason, decision.reason);
    increment(tools.byMode, decision.mode);
    if (decision.outcome === 'narrowed' || decision.outcome === 'sticky') for (const toolset of decision.predictedToolsets) increment(tools.toolsets, toolset);
    if (decision.recoveries) {
      tools.recoveries += decision.recoveries;
      tools.requestsWithRecovery += 1;
      tools.recoveryOverheadTokens += decision.recoveryOverheadTokens ?? 0;
    }
    if (decision.fullSchemaTokens !== undefined && decision.sentSchemaTokens !== undefined) {
      tools.fullSchemaTokens += decision.fullSchemaTokens;
      tools.sentSchemaTokens += decision.sentSchemaTokens;
    }
  }
  if (record.decision.models) increment(models.byPolicy, record.decision.models.policy);
  if (record.servedModel) increment(models.byServedModel, `${record.servedProvider ?? '?'}/${record.servedModel}`);
  if (failedOver(record)) models.failovers += 1;
  const priceCap = record.decision.models?.priceCap;
  if (priceCap && priceCap.refused.length > 0) {
    models.priceCapped.requests += 1;
    if (record.servedModel === undefined) models.priceCapped.unserved += 1;
    for (const refused of priceCap.refused) increment(models.priceCapped.refusedFallbacks, `${refused.provider}/${refused.model}`);
  }
}

/**
 * What tool and model routing decided over a period, folded from the ledger's per-request decisions (paged, so
 * memory stays flat however long the ledger is).
 */
export async function summarizeRouting(store: LedgerStore, filter: LedgerFilter): Promise<{ tools: ToolRoutingSummary; models: ModelRoutingSummary }> {
  const tools: ToolRoutingSummary = {
    requests: 0,
    withTools: 0,
    byOutcome: {},
    byReason: {},
    byMode: {},
    toolsets: {},
    recoveries: 0,
    requestsWithRecovery: 0,
    recoveryOverheadTokens: 0,
    fullSchemaTokens: 0,
    sentSchemaTokens: 0,
    reduction: 0,
  };
  const models: ModelRoutingSummary = { byPolicy: {}, byServedModel: {}, failovers: 0, priceCapped: { requests: 0, unserved: 0, refusedFallbacks: {} } };
  let cursor: string | undefined;
  do {
    const page = await store.requests({ ...filter, limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const record of page.items) add(tools, models, record);
    cursor = page.nextCursor;
  } while (cursor);
  tools.reduction = tools.fullSchemaTokens === 0 ? 0 : 1 - tools.sentSchemaTokens / tools.fullSchemaTokens;
  return { tools, models };
}
