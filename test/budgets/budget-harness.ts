import type { ConfigInput } from '../../src/config/schema.js';
import type { BudgetsConfig } from '../../src/config/budgets.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import type { StartGatewayOptions } from '../../src/server/start-gateway.js';

/** Every synthetic reply reports 10 input and 10 output tokens: 20 tokens a request. */
export const tokensPerRequest = 20;
/** gpt-test at 1,000 USD per million tokens either way: $0.02 a request. claude-test at half that. */
export const gptUsdPerRequest = 0.02;
export const claudeUsdPerRequest = 0.01;

export type BudgetsInput = Partial<Omit<BudgetsConfig, 'soft_at' | 'estimate_output_tokens'>> & { soft_at?: number; estimate_output_tokens?: number };

/** The default test config with known prices and the given budgets. */
export function budgetConfig(upstreamUrl: string, budgets: BudgetsInput): ConfigInput {
  const base = defaultConfig(upstreamUrl);
  return {
    ...base,
    providers: [
      {
        ...base.providers![0]!,
        models: [
          { id: 'gpt-test', prices: { input: 1_000, output: 1_000 } },
          { id: 'big-test', context_window: 200_000, prices: { input: 3_000, output: 3_000 } },
          { id: 'embed-a', embeddings: true, prices: { input: 1_000, output: 0 } },
        ],
      },
      { ...base.providers![1]!, models: [{ id: 'claude-test', prices: { input: 500, output: 500 } }] },
    ],
    budgets,
  };
}

/** A gateway whose upstream answers every chat request with 20 tokens. */
export async function startBudgetHarness(budgets: BudgetsInput, extra: Partial<StartGatewayOptions> = {}): Promise<Harness> {
  const harness = await startHarness((url) => budgetConfig(url, budgets), extra);
  fixedUsage(harness);
  return harness;
}

export function fixedUsage(harness: Pick<Harness, 'upstream'>): void {
  harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'ok', usage: { inputTokens: 10, outputTokens: 10 } } });
}

/**
 * Resolves once nothing is held any more: every finished request has settled into the counters. The bound only
 * ends a test that would otherwise hang; it is not a speed.
 */
export async function settled(harness: Pick<Harness, 'gateway'>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await harness.gateway.gateway.budgets.status();
    if (statuses.every((status) => status.held === 0)) return;
    if (Date.now() > deadline) throw new Error(`budgets still hold ${JSON.stringify(statuses)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function nextUtcMidnight(at = Date.now()): string {
  const date = new Date(at);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)).toISOString();
}

export function nextUtcMonth(at = Date.now()): string {
  const date = new Date(at);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString();
}
