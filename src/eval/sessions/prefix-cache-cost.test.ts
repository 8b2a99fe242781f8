import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { promptTokens, scenarioCacheCosts, sumCacheCosts } from './prefix-cache-cost.js';

describe('prefix-cache cost model (EVALS.md eval sessions)', () => {
  it('caches the longest common token prefix with any earlier call, at 0.10, and writes the rest at 1.25', () => {
    const costs = scenarioCacheCosts([Uint32Array.from([1, 2, 3]), Uint32Array.from([1, 2, 4, 5]), Uint32Array.from([1, 2, 4, 6]), Uint32Array.from([9])]);
    expect(costs.map((cost) => cost.cachedTokens)).toEqual([0, 2, 3, 0]);
    expect(costs[0]?.cost).toBeCloseTo(3 * 1.25);
    expect(costs[1]?.cost).toBeCloseTo(2 * 0.1 + 2 * 1.25);
    // The third call shares more with the second call than with the first.
    expect(costs[2]?.cost).toBeCloseTo(3 * 0.1 + 1 * 1.25);
    const totals = sumCacheCosts(costs);
    expect(totals.promptTokens).toBe(12);
    expect(totals.cachedTokens).toBe(5);
    expect(totals.cost).toBeCloseTo(3.75 + 2.7 + 1.55 + 1.25);
  });

  it('tokenises tools, then system, then messages, each as serialised', () => {
    const parts = { toolsJson: '[{"type":"function"}]', systemJson: '[{"role":"system","content":"be brief"}]', messagesJson: '[{"role":"user","content":"hi"}]' };
    const tokens = promptTokens(parts, new Map());
    const expected = [...encode(parts.toolsJson), ...encode(parts.systemJson), ...encode(parts.messagesJson)];
    expect([...tokens]).toEqual(expected);
  });

  it('a changed tools array breaks the cache from the first token: the whole prompt is written again', () => {
    const memo = new Map<string, Uint32Array>();
    const system = '[{"role":"system","content":"You are a helpful agent."}]';
    const first = promptTokens({ toolsJson: '[{"name":"read_file"}]', systemJson: system, messagesJson: '[{"role":"user","content":"open README"}]' }, memo);
    const grown = promptTokens({ toolsJson: '[{"name":"web_search"},{"name":"read_file"}]', systemJson: system, messagesJson: '[{"role":"user","content":"open README"}]' }, memo);
    const [, second] = scenarioCacheCosts([first, grown]);
    // Only the bytes before the first difference (`[{"name":"`) are read from the cache.
    expect(second?.cachedTokens).toBe(encode('[{"name":"').length);
    expect(second?.cost).toBeCloseTo(second!.cachedTokens * 0.1 + (grown.length - second!.cachedTokens) * 1.25);
  });
});
