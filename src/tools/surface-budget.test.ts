import { describe, expect, it } from 'vitest';
import { defaultToolRoutingConfig } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import type { SurfaceBudgetPolicy } from './surface-budget.js';
import { spendSurfaceBudget } from './surface-budget.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';

// Ten toolsets of 1,000 tokens and two cheap ones: 10,400 tokens in all.
const tokens = new Map<string, number>([...Array.from({ length: 10 }, (_, index): [string, number] => [`big${index}`, 1000]), ['cheap0', 200], ['cheap1', 200]]);
const policy: SurfaceBudgetPolicy = { share: 0.12, floor: 0.003, broadShare: 0.18, broadMissCost: 300_000, minimumTokens: 6000 };

/** A surface that loads `loaded` and nothing else, in the 10,400-token tools array. */
function sized(...loaded: string[]): { used: number; total: number; loaded: string[] } {
  return { used: loaded.reduce((sum, name) => sum + tokens.get(name)!, 0), total: 10_400, loaded };
}

describe('spendSurfaceBudget', () => {
  it('fills a small surface up to its share, most probable per token first, and never past it', () => {
    // big0 alone is 9.6%; the share leaves room for 248 more tokens: one cheap toolset, not a big one.
    const spent = spendSurfaceBudget(sized('big0'), { big1: 0.05, cheap0: 0.004, cheap1: 0.01 }, tokens, policy);
    expect(spent).toEqual({ added: ['cheap1'], kind: 'filled' });
  });

  it('leaves out what the model gives less than the floor', () => {
    expect(spendSurfaceBudget(sized('big0'), { cheap0: 0.002, cheap1: 0.001 }, tokens, policy)).toEqual({ added: [] });
  });

  it('widens a broad surface by expected cost: probability × miss cost against tokens', () => {
    // big0 + big1 = 19%: broad. big2 at 0.004 × 300,000 = 1,200 ≥ 1,000 comes along; big3 at 0.003 (900) does not.
    const spent = spendSurfaceBudget(sized('big0', 'big1'), { big2: 0.004, big3: 0.003, cheap0: 0.001 }, tokens, policy);
    expect(spent).toEqual({ added: ['big2', 'cheap0'], kind: 'broadened' });
  });

  it('does nothing on a small tools array, when turned off, or for toolsets without a known size', () => {
    const small = new Map([['a', 500], ['b', 500]]);
    expect(spendSurfaceBudget({ used: 500, total: 1000, loaded: ['a'] }, { b: 0.5 }, small, policy)).toEqual({ added: [] });
    expect(spendSurfaceBudget(sized('big0'), { cheap1: 0.5 }, tokens, { ...policy, share: 0 })).toEqual({ added: [] });
    expect(spendSurfaceBudget(sized('big0', 'big1'), { big2: 0.5 }, tokens, { ...policy, broadMissCost: 0 })).toEqual({ added: [] });
    expect(spendSurfaceBudget(sized('big0'), { unknown: 0.9 }, tokens, policy)).toEqual({ added: [] });
  });
});

describe('the surface budget on a first turn', () => {
  it('adds toolsets only on top of what the classifier chose, and says so in the rules', () => {
    const tools = hermesTools('cli');
    const message = userTurn('run the test suite and fix what fails');
    const config = defaultToolRoutingConfig();
    const off = defaultToolRoutingConfig();
    off.surface_budget = { ...off.surface_budget, share: 0, broad_share: 1 };
    const plain = decideFirstTurnSurface({ tools, format: 'openai-chat', messages: message, config: off });
    const budgeted = decideFirstTurnSurface({ tools, format: 'openai-chat', messages: message, config });
    expect(plain.outcome).toBe('narrowed');
    expect(budgeted.surface!.loadedToolsets).toEqual(expect.arrayContaining(plain.surface!.loadedToolsets));
    const added = budgeted.surface!.loadedToolsets.filter((name) => !plain.surface!.loadedToolsets.includes(name));
    expect(budgeted.rules.some((rule) => rule.startsWith('budget-'))).toBe(added.length > 0);
    expect(plain.rules.some((rule) => rule.startsWith('budget-'))).toBe(false);
  });
});
