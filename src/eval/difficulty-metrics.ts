/**
 * RouteLLM-style cost/quality metrics for a difficulty scorer. Prompts are sorted by score (highest first);
 * sending the top share k to the strong model gives quality Q(k). PGR(k) = (Q(k) − Qw) / (Qs − Qw) measures how
 * much of the strong model's advantage is recovered at that cost.
 */
export interface ScoredOutcome {
  score: number;
  /** Quality in [0, 1] of the weak and of the strong model on this prompt (correctness, or a 1–10 score ÷ 10). */
  weakQuality: number;
  strongQuality: number;
}

export interface DifficultyMetrics {
  cases: number;
  weak_quality: number;
  strong_quality: number;
  apgr: number;
  cpt50: number;
  cpt80: number;
  cpt95: number;
  strong_share_at_95pct_quality: number;
  random_strong_share_at_95pct_quality: number;
}

export function difficultyMetrics(outcomes: readonly ScoredOutcome[]): DifficultyMetrics {
  const count = outcomes.length;
  const weakTotal = outcomes.reduce((sum, outcome) => sum + outcome.weakQuality, 0);
  const strongTotal = outcomes.reduce((sum, outcome) => sum + outcome.strongQuality, 0);
  const weakQuality = count ? weakTotal / count : 0;
  const strongQuality = count ? strongTotal / count : 0;
  const gap = strongQuality - weakQuality;
  // Stable sort: equal scores keep file order, so a constant scorer behaves like one fixed arbitrary routing.
  const order = outcomes.map((outcome, index) => ({ outcome, index })).sort((left, right) => right.outcome.score - left.outcome.score || left.index - right.index);

  // qualities[k] = Q(k / count): the top k prompts go to the strong model.
  const qualities: number[] = [weakQuality];
  let running = weakTotal;
  for (const { outcome } of order) {
    running += outcome.strongQuality - outcome.weakQuality;
    qualities.push(running / count);
  }
  const pgr = qualities.map((quality) => (gap > 0 ? (quality - weakQuality) / gap : 1));
  let area = 0;
  for (let step = 1; step < pgr.length; step += 1) area += (pgr[step - 1]! + pgr[step]!) / 2;
  const apgr = count ? area / count : 0;

  const smallestShare = (reached: (step: number) => boolean): number => {
    for (let step = 0; step < qualities.length; step += 1) if (reached(step)) return count ? step / count : 0;
    return 1;
  };
  const epsilon = 1e-12;
  return {
    cases: count,
    weak_quality: round(weakQuality),
    strong_quality: round(strongQuality),
    apgr: round(apgr),
    cpt50: round(smallestShare((step) => pgr[step]! >= 0.5 - epsilon)),
    cpt80: round(smallestShare((step) => pgr[step]! >= 0.8 - epsilon)),
    cpt95: round(smallestShare((step) => pgr[step]! >= 0.95 - epsilon)),
    strong_share_at_95pct_quality: round(smallestShare((step) => qualities[step]! >= 0.95 * strongQuality - epsilon)),
    random_strong_share_at_95pct_quality: round(gap > 0 ? Math.min(1, Math.max(0, (0.95 * strongQuality - weakQuality) / gap)) : 0),
  };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
