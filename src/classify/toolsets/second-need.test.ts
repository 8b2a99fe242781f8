import { describe, expect, it } from 'vitest';
import { needClauses, secondNeeds } from './second-need.js';

describe('second needs', () => {
  it('splits coordinated clauses in several languages, not single words', () => {
    expect(needClauses('find the cheapest flight to lisbon and remind me on friday to book it')).toEqual(['find the cheapest flight to lisbon', 'remind me on friday to book it']);
    expect(needClauses('busca vuelos baratos y también recuérdame el viernes')).toEqual(['busca vuelos baratos', 'recuérdame el viernes']);
    expect(needClauses('查一下明天的天气然后提醒我带伞')).toEqual(['查一下明天的天气', '提醒我带伞']);
    expect(needClauses('can i get the weather for tomorrow')).toEqual(['can i get the weather for tomorrow']);
  });

  it('keeps one toolset per clause, only from clauses that need a tool, only over the bar', () => {
    const table: Record<string, number[]> = { a: [0.9, 0.8, 0.3], b: [0.9, 0.1, 0.6], c: [0.2, 0.1, 0.9], d: [0.9, 0.2, 0.3] };
    const scorer = { labels: ['_task', 'web', 'cronjob'], predict: (text: string) => table[text]! };
    const found = secondNeeds(['a', 'b', 'c', 'd'], scorer, new Set(['web', 'cronjob']), '_task', 0.5);
    expect([...found.top.entries()]).toEqual([['web', 0.8], ['cronjob', 0.6]]);
    // Clause c needs no tool (0.2): its 0.9 is not evidence.
    expect([...found.maxima.entries()]).toEqual([['web', 0.8], ['cronjob', 0.6]]);
    expect(secondNeeds(['a'], scorer, new Set(['web', 'cronjob']), '_task', 0.5).top.size).toBe(0);
    const off = secondNeeds(['a', 'b'], scorer, new Set(['web', 'cronjob']), '_task', 1);
    expect(off.top.size).toBe(0);
    expect(off.maxima.get('cronjob')).toBe(0.6);
  });
});
