/** 1 hardest … 5 easiest, matching the capability tier scale (1 strongest … 5 weakest). */
export interface DifficultyEstimate {
  level: number;
  /** What moved the estimate, for the decision record. */
  reason: string;
}

/** Turns the request's text into a difficulty level. Pluggable: the heuristic now, a learned model later. */
export interface DifficultyEstimator {
  readonly name: string;
  estimate(text: string): DifficultyEstimate;
}

export function clampLevel(level: number): number {
  return Math.min(5, Math.max(1, Math.round(level)));
}
