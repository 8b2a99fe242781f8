import { type ModelPrice, type Provider, calcPrice, findProvider } from '@pydantic/genai-prices';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../core/usage.js';
import { catalogCost, fastPricesOf } from './catalog-cost.js';
import { lookupModelInfo } from './model-info.js';
import { priceUsage } from './price-usage.js';

function usage(values: Partial<Usage>): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...values };
}

/** The package's own numbers for a model, read straight from its data. */
function packagePrices(providerId: string, modelId: string): ModelPrice {
  const model = findProvider({ providerId })?.models.find((candidate) => candidate.id === modelId);
  if (model === undefined || Array.isArray(model.prices)) throw new Error(`no flat prices for ${modelId}`);
  return model.prices;
}

function flat(value: unknown): number {
  if (typeof value === 'number') return value;
  throw new Error(`expected a flat price, got ${JSON.stringify(value)}`);
}

function tier(value: unknown, totalInput: number): number {
  if (typeof value === 'number') return value;
  const tiered = value as { base: number; tiers: { start: number; price: number }[] };
  const reached = tiered.tiers.filter((candidate) => totalInput > candidate.start);
  return reached.length === 0 ? tiered.base : Math.max(...reached.map((candidate) => candidate.price));
}

describe('priceUsage', () => {
  it('prices gpt-4o by per-token arithmetic on the catalogue numbers', () => {
    const prices = packagePrices('openai', 'gpt-4o');
    const result = priceUsage('openai', 'gpt-4o', usage({ inputTokens: 12_000, cacheReadTokens: 4_000, outputTokens: 700 }));
    const expected =
      (8_000 * flat(prices.input_mtok) + 4_000 * flat(prices.cache_read_mtok) + 700 * flat(prices.output_mtok)) / 1e6;
    expect(result.costUsd).toBeCloseTo(expected, 12);
    expect(result.source).toBe('catalog:openai/gpt-4o');
  });

  it('charges gpt-4o cache writes at the input price, since it has no cache-write price', () => {
    const prices = packagePrices('openai', 'gpt-4o');
    expect(prices.cache_write_mtok).toBeUndefined();
    const result = priceUsage('openai', 'gpt-4o-2024-08-06', usage({ inputTokens: 1_000, cacheWriteTokens: 400 }));
    expect(result.costUsd).toBeCloseTo((1_000 * flat(prices.input_mtok)) / 1e6, 12);
  });

  it('prices claude-sonnet-4-5 (dated name) with cache read and write, and its long-context tier', () => {
    const prices = packagePrices('anthropic', 'claude-sonnet-4-5');
    for (const inputTokens of [50_000, 200_000, 250_000]) {
      const reported = usage({ inputTokens, cacheReadTokens: 30_000, cacheWriteTokens: 10_000, outputTokens: 2_000 });
      const result = priceUsage('anthropic', 'claude-sonnet-4-5-20250929', reported);
      const expected =
        ((inputTokens - 40_000) * tier(prices.input_mtok, inputTokens) +
          30_000 * tier(prices.cache_read_mtok, inputTokens) +
          10_000 * tier(prices.cache_write_mtok, inputTokens) +
          2_000 * tier(prices.output_mtok, inputTokens)) /
        1e6;
      expect(result.costUsd).toBeCloseTo(expected, 12);
    }
    const below = priceUsage('anthropic', 'claude-sonnet-4-5', usage({ inputTokens: 200_000 })).costUsd ?? 0;
    const above = priceUsage('anthropic', 'claude-sonnet-4-5', usage({ inputTokens: 200_001 })).costUsd ?? 0;
    expect(above / below).toBeGreaterThan(1.5);
  });

  it('leaves an unknown model, or an unknown provider, unpriced rather than $0', () => {
    expect(priceUsage('openai', 'gpt-nonexistent-9', usage({ inputTokens: 10 }))).toEqual({
      costUsd: null,
      source: 'unpriced:unknown-model',
    });
    expect(priceUsage('my-endpoint', 'gpt-4o', usage({ inputTokens: 10 })).costUsd).toBeNull();
    expect(priceUsage('openai', 'gpt-4o', undefined)).toEqual({ costUsd: null, source: 'unpriced:no-usage' });
  });

  it('resolves a config provider id through its kind', () => {
    const direct = priceUsage('anthropic', 'claude-sonnet-4-5', usage({ inputTokens: 1000, outputTokens: 10 }));
    const named = priceUsage('team-claude', 'claude-sonnet-4-5', usage({ inputTokens: 1000, outputTokens: 10 }), {
      providerKinds: { 'team-claude': 'anthropic' },
    });
    expect(named).toEqual(direct);
    expect(
      priceUsage('proxy', 'gpt-4o', usage({ inputTokens: 10 }), { providerKinds: { proxy: 'openai-compatible' } }).costUsd,
    ).toBeNull();
    expect(priceUsage('box', 'llama3.1:8b', usage({ inputTokens: 10 }), { providerKinds: { box: 'ollama' } })).toEqual({
      costUsd: 0,
      source: 'self-hosted',
    });
  });

  it('uses config overrides first, the provider-qualified one over the bare model', () => {
    const overrides = {
      'gpt-4o': { input: 1, output: 2 },
      'azure-east/gpt-4o': { input: 10, output: 20, cache_read: 5 },
    };
    const reported = usage({ inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 100_000, outputTokens: 1_000_000 });
    const bare = priceUsage('openai', 'gpt-4o', reported, { overrides });
    expect(bare).toEqual({ costUsd: 0.4 * 1 + 0.5 * 1 + 0.1 * 1 + 2, source: 'override:gpt-4o' });
    const qualified = priceUsage('azure-east', 'gpt-4o', reported, { overrides });
    expect(qualified.costUsd).toBeCloseTo(0.4 * 10 + 0.5 * 5 + 0.1 * 10 + 20, 12);
    expect(qualified.source).toBe('override:azure-east/gpt-4o');
    expect(priceUsage('mystery', 'private-model', reported, { overrides: { 'private-model': { input: 0, output: 0 } } }).costUsd).toBe(0);
  });

  it('flags usage the catalogue rejects instead of throwing', () => {
    expect(priceUsage('openai', 'gpt-4o', usage({ inputTokens: 10, cacheReadTokens: 20 }))).toEqual({
      costUsd: null,
      source: 'unpriced:invalid-usage',
    });
  });
});

describe('catalogCost fast path', () => {
  const providerIds = ['openai', 'anthropic', 'google', 'openrouter', 'deepseek', 'groq', 'mistral', 'together'];
  const entries = providerIds.flatMap((providerId) => {
    const provider = findProvider({ providerId }) as Provider;
    return provider.models.map((model) => ({
      provider: { ...provider, models: [model] },
      model,
      fastPrices: fastPricesOf(model.prices),
    }));
  });

  it('agrees with the package calcPrice for every catalogue model of the main providers', () => {
    expect(entries.length).toBeGreaterThan(500);
    // Most models must take the fast path, or the comparison below proves little.
    expect(entries.filter((entry) => entry.fastPrices !== undefined).length).toBeGreaterThan(entries.length * 0.8);
    const reportedUsage = fc
      .record({
        uncached: fc.integer({ min: 0, max: 400_000 }),
        cacheRead: fc.integer({ min: 0, max: 300_000 }),
        cacheWrite: fc.integer({ min: 0, max: 100_000 }),
        outputTokens: fc.integer({ min: 0, max: 50_000 }),
      })
      .map(({ uncached, cacheRead, cacheWrite, outputTokens }) =>
        usage({ inputTokens: uncached + cacheRead + cacheWrite, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, outputTokens }),
      );
    fc.assert(
      fc.property(fc.constantFrom(...entries), reportedUsage, (entry, reported) => {
        const expected = calcPrice(
          {
            input_tokens: reported.inputTokens,
            output_tokens: reported.outputTokens,
            cache_read_tokens: reported.cacheReadTokens,
            cache_write_tokens: reported.cacheWriteTokens,
          },
          entry.model.id,
          { provider: entry.provider },
        );
        if (expected === null) return;
        const actual = catalogCost(entry, reported, undefined);
        expect(Math.abs(actual - expected.total_price)).toBeLessThanOrEqual(1e-9 * Math.max(1, expected.total_price));
      }),
      { numRuns: 3000, seed: 42 },
    );
  });
});

describe('lookupModelInfo', () => {
  it('gives the catalogue context window', () => {
    const model = findProvider({ providerId: 'anthropic' })?.models.find((candidate) => candidate.id === 'claude-sonnet-4-5');
    expect(lookupModelInfo('anthropic', 'claude-sonnet-4-5-20250929')).toMatchObject({
      catalogProvider: 'anthropic',
      catalogModel: 'claude-sonnet-4-5',
      contextWindow: model?.context_window,
    });
    expect(lookupModelInfo('openai', 'gpt-nonexistent-9')).toBeUndefined();
    expect(lookupModelInfo('ollama', 'llama3')).toBeUndefined();
  });
});
