import { describe, expect, it } from 'vitest';
import { difficultyMetrics } from './difficulty-metrics.js';

describe('difficultyMetrics', () => {
  it('matches a hand-computed example', () => {
    // Ordered by score: +1 (only strong right), 0 (both right), +1, −1 (only weak right).
    // Qw = 0.5, Qs = 0.75; Q(k) = 0.5, 0.75, 0.75, 1.0, 0.75 → PGR = 0, 1, 1, 2, 1.
    const metrics = difficultyMetrics([
      { score: 0.9, weakQuality: 0, strongQuality: 1 },
      { score: 0.8, weakQuality: 1, strongQuality: 1 },
      { score: 0.2, weakQuality: 0, strongQuality: 1 },
      { score: 0.1, weakQuality: 1, strongQuality: 0 },
    ]);
    expect(metrics.weak_quality).toBe(0.5);
    expect(metrics.strong_quality).toBe(0.75);
    expect(metrics.apgr).toBe(1.125); // trapezoids 0.5 + 1 + 1.5 + 1.5 over 4 steps
    expect(metrics.cpt50).toBe(0.25);
    expect(metrics.cpt80).toBe(0.25);
    expect(metrics.cpt95).toBe(0.25);
    expect(metrics.strong_share_at_95pct_quality).toBe(0.25); // Q(1) = 0.75 ≥ 0.7125
    expect(metrics.random_strong_share_at_95pct_quality).toBe(0.85); // (0.7125 − 0.5) / 0.25
  });

  it('gives a worst-first ordering a low area', () => {
    const metrics = difficultyMetrics([
      { score: 0.9, weakQuality: 1, strongQuality: 1 },
      { score: 0.1, weakQuality: 0, strongQuality: 1 },
    ]);
    // Q = 0.5, 0.5, 1 → PGR 0, 0, 1 → area (0 + 0.5) / 2.
    expect(metrics.apgr).toBe(0.25);
    expect(metrics.cpt50).toBe(1);
  });
});
