import type { Usage } from '../core/usage.js';
import { cacheCostMethods, promptCacheSaving } from './cache-costs.js';
import type { InsightModels } from './insight-models.js';
import type { UsageGroup } from './ledger-reader.js';

/** One kind of saving, with how it was computed so a reader can check it. */
export interface SavingFigure {
  usd: number;
  tokens: number;
  /** Requests (or tokens, for tool schemas) left out because a price was unknown: never counted as $0. */
  unpriced: number;
  method: string;
}

export interface SavingsSummary {
  toolSchema: SavingFigure;
  modelRouting: SavingFigure;
  promptCache: SavingFigure;
  totalUsd: number;
}

export const savingsMethods = {
  toolSchema:
    'tool-schema tokens left out by tool routing (full surface minus sent surface, mode "on" only) × the served model\'s price: its cache-read price when the request read from the cache (the schemas would likely have been cached too), else its input price',
  modelRouting:
    'for priced requests whose served model differs from the baseline (the requested model; the alias means default_model): the same usage priced on the cheapest configured deployment of the baseline, minus the actual cost; net, so routing to a dearer model counts negative; no saving claimed when the baseline has no price',
  promptCache: cacheCostMethods.saved,
} as const;

function emptyFigure(method: string): SavingFigure {
  return { usd: 0, tokens: 0, unpriced: 0, method };
}

function usageOf(group: Pick<UsageGroup, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens'>): Usage {
  return {
    inputTokens: group.inputTokens,
    outputTokens: group.outputTokens,
    cacheReadTokens: group.cacheReadTokens,
    cacheWriteTokens: group.cacheWriteTokens,
    reasoningTokens: group.reasoningTokens,
  };
}

/** What one group of requests saved; flat prices make the sum over groups equal the sum over requests. */
export function groupSavings(group: UsageGroup, models: InsightModels): SavingsSummary {
  const toolSchema = emptyFigure(savingsMethods.toolSchema);
  const modelRouting = emptyFigure(savingsMethods.modelRouting);
  const promptCache = emptyFigure(savingsMethods.promptCache);
  const provider = group.provider;
  const model = group.model;
  if (provider !== null && model !== null) {
    if (group.removedSchemaTokens > 0) {
      const removed = group.removedSchemaTokens;
      const price = group.cached
        ? models.price(provider, model, { inputTokens: removed, cacheReadTokens: removed })
        : models.price(provider, model, { inputTokens: removed });
      toolSchema.tokens = removed;
      if (price === null) toolSchema.unpriced = removed;
      else toolSchema.usd = price;
    }
    if (group.cacheReadTokens > 0 || group.cacheWriteTokens > 0) {
      const saved = promptCacheSaving(models, provider, model, group.cacheReadTokens, group.cacheWriteTokens);
      promptCache.tokens = group.cacheReadTokens;
      if (saved === null) promptCache.unpriced = group.requests;
      else promptCache.usd = saved;
    }
    if (group.priced) {
      const baselines = models.baselines(group.requestedModel);
      const isBaseline = baselines.some((baseline) => baseline.provider === provider && baseline.model === model);
      if (baselines.length > 0 && !isBaseline && !baselines.some((baseline) => baseline.model === model)) {
        const costs = baselines
          .map((baseline) => models.price(baseline.provider, baseline.model, usageOf(group)))
          .filter((cost): cost is number => cost !== null);
        if (costs.length === 0) modelRouting.unpriced = group.requests;
        else {
          // The cheapest deployment of the baseline: the least this request could have cost without routing.
          modelRouting.usd = Math.min(...costs) - group.costUsd;
          modelRouting.tokens = group.inputTokens + group.outputTokens;
        }
      }
    }
  }
  return { toolSchema, modelRouting, promptCache, totalUsd: toolSchema.usd + modelRouting.usd + promptCache.usd };
}

function addFigure(into: SavingFigure, from: SavingFigure): void {
  into.usd += from.usd;
  into.tokens += from.tokens;
  into.unpriced += from.unpriced;
}

export function emptySavings(): SavingsSummary {
  return {
    toolSchema: emptyFigure(savingsMethods.toolSchema),
    modelRouting: emptyFigure(savingsMethods.modelRouting),
    promptCache: emptyFigure(savingsMethods.promptCache),
    totalUsd: 0,
  };
}

export function addSavings(into: SavingsSummary, from: SavingsSummary): SavingsSummary {
  addFigure(into.toolSchema, from.toolSchema);
  addFigure(into.modelRouting, from.modelRouting);
  addFigure(into.promptCache, from.promptCache);
  into.totalUsd += from.totalUsd;
  return into;
}

/** Savings summed over groups. */
export function sumSavings(groups: readonly UsageGroup[], models: InsightModels): SavingsSummary {
  return groups.reduce((total, group) => addSavings(total, groupSavings(group, models)), emptySavings());
}

/** Savings of one request, from the same arithmetic (a request is a group of one). */
export function requestSavings(
  request: {
    provider: string | null;
    model: string | null;
    requestedModel: string;
    costUsd: number | null;
    usage: Usage | null;
    removedSchemaTokens: number;
    status: number;
  },
  models: InsightModels,
): SavingsSummary {
  const usage = request.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  return groupSavings(
    {
      bucket: 'all',
      provider: request.provider,
      model: request.model,
      requestedModel: request.requestedModel,
      priced: request.costUsd !== null,
      cached: usage.cacheReadTokens > 0,
      requests: 1,
      failedRequests: request.status >= 400 ? 1 : 0,
      ...usage,
      costUsd: request.costUsd ?? 0,
      removedSchemaTokens: request.removedSchemaTokens,
    },
    models,
  );
}
