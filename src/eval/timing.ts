/** Percentile of a list of durations in milliseconds (nearest rank), rounded to microseconds. */
export function percentileMs(durations: readonly number[], percentile: number): number {
  if (!durations.length) return 0;
  const sorted = [...durations].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 1000) / 1000;
}
