import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../catalog/deployment.js';
import type { Turn } from '../../core/turn.js';
import type { Candidate } from '../candidate.js';
import { defaultRoutingConfig } from '../../config/routing.js';
import { cheapestCapablePolicy } from './cheapest-capable.js';
import type { PolicyContext } from './routing-policy.js';

function deployment(name: string, tier: number, prices?: { input: number; output: number }): Deployment {
  return { providerId: 'p', modelId: name, upstreamModel: name, qualifiedName: `p/${name}`, tier, ...(prices ? { prices } : {}) };
}

function turn(text: string): Turn {
  return {
    requestId: 'r',
    receivedAt: 0,
    format: 'openai-chat',
    body: {},
    requestedModel: 'hermes-router',
    stream: false,
    messages: [{ role: 'user', text, toolCallNames: [], hasImage: false }],
    tools: [],
    hasImages: false,
    estimatedInputTokens: 1_000,
    hints: {},
  };
}

function context(text: string, overrides: Partial<PolicyContext> = {}): PolicyContext {
  return { turn: turn(text), sessionId: undefined, explicit: false, config: defaultRoutingConfig(), health: () => 0, latency: () => undefined, ...overrides };
}

const order = (candidates: Candidate[], ctx: PolicyContext) =>
  cheapestCapablePolicy({ name: 'fixed', estimate: () => ({ level: 3, reason: 'fixed' }) })
    .order(candidates, ctx)
    .candidates.map((candidate) => [candidate.deployment.modelId, candidate.source]);

const as = (deployments: Deployment[]): Candidate[] => deployments.map((item) => ({ deployment: item, source: 'fallback' }));

describe('cheapest capable', () => {
  it('keeps only tier ≤ difficulty in front, cheapest first, unpriced after priced; the rest strongest first', () => {
    const candidates = as([
      deployment('weak', 5, { input: 0.01, output: 0.01 }),
      deployment('unpriced', 3),
      deployment('pricey', 1, { input: 5, output: 15 }),
      deployment('mid', 3, { input: 0.5, output: 2 }),
      deployment('weaker', 4, { input: 0.02, output: 0.02 }),
    ]);
    expect(order(candidates, context('x'))).toEqual([
      ['mid', 'cheapest-capable'],
      ['pricey', 'cheapest-capable'],
      ['unpriced', 'cheapest-capable'],
      ['weaker', 'fallback'],
      ['weak', 'fallback'],
    ]);
  });

  it('breaks cost ties by health, then by latency', () => {
    const candidates = as([deployment('a', 2, { input: 1, output: 1 }), deployment('b', 2, { input: 1, output: 1 }), deployment('c', 2, { input: 1, output: 1 })]);
    const health = (item: Deployment) => (item.modelId === 'a' ? 2 : 0);
    const latency = (item: Deployment) => (item.modelId === 'b' ? 900 : item.modelId === 'c' ? 120 : undefined);
    expect(order(candidates, context('x', { health, latency })).map(([model]) => model)).toEqual(['c', 'b', 'a']);
  });

  it('prices the expected output from max_tokens', () => {
    // Input-cheap but output-expensive loses when the client asks for a long answer.
    const candidates = as([deployment('cheap-in', 3, { input: 0.1, output: 10 }), deployment('cheap-out', 3, { input: 1, output: 1 })]);
    const short = context('x');
    short.turn.body = { max_tokens: 10 };
    expect(order(candidates, short)[0]?.[0]).toBe('cheap-in');
    const long = context('x');
    long.turn.body = { max_tokens: 2_000 };
    expect(order(candidates, long)[0]?.[0]).toBe('cheap-out');
  });
});
