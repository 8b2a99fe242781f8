import { lookupTable } from '../../../core/lookup-table.js';
import type { BudgetStatus } from '../../../budgets/budget-guard.js';
import type { Deployment } from '../../../catalog/deployment.js';
import type { InsightModels } from '../../../insight/insight-models.js';
import { overview, qualityView } from '../../../insight/insight-views.js';
import type { LedgerReader } from '../../../insight/ledger-reader.js';
import { scoreSession } from '../../../insight/quality.js';
import { requestSavings } from '../../../insight/savings.js';
import { sessionCacheSavings, surfaceChangeTotals, surfaceChanges } from '../../../insight/cache-costs.js';
import { GatewayError } from '../../../core/errors.js';
import type { DashboardQuery } from './dashboard-query.js';

/** What the Models page needs from the running gateway; absent when the dashboard runs without one. */
export interface DashboardGatewayView {
  deployments(): readonly Deployment[];
  isEnabled(deployment: Deployment): boolean;
  breakerState(qualifiedName: string): string;
  policyRevision(): number;
  /** `budgets:` with the live counters (spent and held), day and month windows; empty when none is configured. */
  budgets(): Promise<readonly BudgetStatus[]>;
}

export interface DashboardApiContext {
  reader: LedgerReader;
  models: InsightModels;
  gateway?: DashboardGatewayView | undefined;
  refreshMs: number;
}

type Handler = (context: DashboardApiContext, query: DashboardQuery) => unknown;

const overviewHandler: Handler = ({ reader, models, refreshMs }, query) => ({
  ...overview(reader, models, query.filter, query.utcOffsetMinutes),
  refreshMs,
  generatedAt: Date.now(),
});

const dailyHandler: Handler = ({ reader, models }, query) => ({
  days: overview(reader, models, query.filter, query.utcOffsetMinutes).days,
});

const routingHandler: Handler = ({ reader }, query) => {
  const tools = reader.toolRouting(query.filter);
  return {
    tools,
    fullSurfaceFallbacks: tools.filter((row) => row.outcome === 'full').reduce((sum, row) => sum + row.requests, 0),
    recoveries: tools.reduce((sum, row) => sum + row.recoveries, 0),
    modelRoutes: reader.modelRoutes(query.filter, query.limit),
    attemptErrors: reader.attemptErrors(query.filter, query.limit),
  };
};

const sessionsHandler: Handler = ({ reader, models }, query) => {
  const order = query.parameters.get('order') === 'worst' ? 'worst' : 'recent';
  const view = qualityView(reader, models, query.filter, { limit: query.limit, offset: query.offset, order });
  return { total: view.total, offset: query.offset, limit: query.limit, sessions: view.page };
};

const qualityHandler: Handler = ({ reader, models }, query) => {
  const view = qualityView(reader, models, query.filter, { limit: query.limit, offset: query.offset, order: 'worst' });
  return { sessions: view.sessions, grades: view.grades, averageScore: view.averageScore, worst: view.page };
};

const sessionHandler: Handler = ({ reader, models }, query) => {
  const id = query.parameters.get('id');
  if (!id) throw new GatewayError('invalid_request', 'Name the session: ?id=<session id>.');
  const [stats] = reader.sessionStats({ session: id });
  if (stats === undefined) throw new GatewayError('not_found', `No session ${id} in the ledger.`);
  const timeline = reader.sessionTimeline(id, { limit: query.limit, offset: query.offset }).map((row) => {
    const usage =
      row.inputTokens === null
        ? null
        : {
            inputTokens: row.inputTokens,
            outputTokens: row.outputTokens ?? 0,
            cacheReadTokens: row.cacheReadTokens ?? 0,
            cacheWriteTokens: row.cacheWriteTokens ?? 0,
            reasoningTokens: 0,
          };
    const removed =
      row.toolOutcome !== null && row.fullSchemaTokens !== null && row.sentSchemaTokens !== null
        ? Math.max(row.fullSchemaTokens - row.sentSchemaTokens, 0)
        : 0;
    const saved = requestSavings(
      {
        provider: row.servedProvider,
        model: row.servedModel,
        requestedModel: row.requestedModel,
        costUsd: row.costUsd,
        usage,
        removedSchemaTokens: removed,
        status: row.status,
      },
      models,
    );
    const window = row.servedModel === null ? undefined : models.contextWindow(row.servedProvider, row.servedModel);
    return {
      ...row,
      savedUsd: saved.totalUsd,
      cacheSavedUsd: saved.promptCache.usd,
      contextFill: window === undefined || row.inputTokens === null ? null : row.inputTokens / window,
    };
  });
  // The prompt cache over the whole session: share of input read, tokens written, what caching saved net of the
  // write premium; and every change of the tool surface with what it cost (the prompt written again).
  const saving = sessionCacheSavings(reader, models, { session: id }).get(id);
  const changes = surfaceChanges(reader, models, { session: id });
  const promptCache = {
    readShare: stats.inputTokens > 0 ? stats.cacheReadTokens / stats.inputTokens : null,
    writeTokens: stats.cacheWriteTokens,
    savedUsd: saving?.savedUsd ?? 0,
    unpricedRequests: saving?.unpricedRequests ?? 0,
    surfaceChanges: surfaceChangeTotals(changes),
  };
  return { session: { ...scoreSession(stats, models), stats, promptCache }, surfaceChanges: changes, offset: query.offset, timeline };
};

const wasteHandler: Handler = ({ reader, models }, query) => {
  const sessions = reader.sessionStats(query.filter);
  const limit = Math.min(query.limit, 50);
  const uncached = (entry: (typeof sessions)[number]) => entry.inputTokens - entry.cacheReadTokens;
  return {
    schemaOverheads: reader.largestSchemaOverheads(query.filter, limit),
    cacheMisses: sessions
      .filter((entry) => entry.requests >= 3)
      .sort((left, right) => uncached(right) - uncached(left))
      .slice(0, limit)
      .map((entry) => ({ ...entry, uncachedInputTokens: uncached(entry), hitRate: entry.inputTokens > 0 ? entry.cacheReadTokens / entry.inputTokens : null })),
    longestSessions: [...sessions]
      .sort((left, right) => right.requests - left.requests || right.inputTokens - left.inputTokens)
      .slice(0, limit)
      .map((entry) => ({ ...entry, quality: scoreSession(entry, models).score })),
  };
};

const modelsHandler: Handler = ({ reader, models, gateway }, query) => {
  const stats = reader.modelStats(query.filter);
  const configured = (gateway?.deployments() ?? []).map((deployment) => {
    const traffic = stats.find((row) => row.provider === deployment.providerId && row.model === deployment.modelId);
    return {
      provider: deployment.providerId,
      model: deployment.modelId,
      enabled: gateway?.isEnabled(deployment) ?? true,
      kind: deployment.embeddings === true ? 'embeddings' : 'chat',
      breaker: gateway?.breakerState(deployment.qualifiedName) ?? 'closed',
      contextWindow: deployment.contextWindow ?? null,
      inputPerMillion: models.price(deployment.providerId, deployment.modelId, { inputTokens: 1_000_000 }),
      outputPerMillion: models.price(deployment.providerId, deployment.modelId, { outputTokens: 1_000_000 }),
      traffic: traffic ?? null,
    };
  });
  const unconfigured = stats.filter((row) => !configured.some((entry) => entry.provider === row.provider && entry.model === row.model));
  return { revision: gateway?.policyRevision() ?? null, models: configured, otherTraffic: unconfigured };
};

/** The live budget counters of this instance (Redis in a cluster, so every instance shows the same). */
const budgetsHandler: Handler = async ({ gateway }) => ({ budgets: (await gateway?.budgets()) ?? [] });

export const dashboardApiHandlers = lookupTable<Handler>({
  overview: overviewHandler,
  daily: dailyHandler,
  routing: routingHandler,
  sessions: sessionsHandler,
  session: sessionHandler,
  quality: qualityHandler,
  waste: wasteHandler,
  models: modelsHandler,
  budgets: budgetsHandler,
});
