import { performance } from 'node:perf_hooks';

/** Percentile of a list of durations in milliseconds (nearest rank), rounded to microseconds. */
export function percentileMs(durations: readonly number[], percentile: number): number {
  if (!durations.length) return 0;
  const sorted = [...durations].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 1000) / 1000;
}

export interface TimedDecisions<Output> {
  /** The first pass's outputs, in input order (the decisions are pure, so every pass gives the same). */
  outputs: Output[];
  /** Per input, the median of its timed runs: what the decision costs, not what the scheduler did meanwhile. */
  medianMs: number[];
  /** Per input, its first timed run alone (kept for transparency: on a shared machine it mostly measures preemption). */
  firstRunMs: number[];
}

/**
 * Times a pure decision over every input in `passes` passes over the whole list and keeps each input's median
 * run, as `eval tools` does. On a machine shared by many processes a single run of a 0.1 ms decision mostly
 * measures the scheduler (one preemption is 5–50 ms); spreading the runs over time keeps one burst of load from
 * hitting every run of an input. The caller warms the decider first (tables read, code compiled) on text of
 * its own, so no timed run pays start-up work that a running gateway has already done.
 */
export function timeDecisions<Input, Output>(inputs: readonly Input[], decide: (input: Input) => Output, passes = 5): TimedDecisions<Output> {
  const runs = inputs.map((): number[] => []);
  const outputs: Output[] = [];
  for (let pass = 0; pass < Math.max(1, passes); pass += 1) {
    inputs.forEach((input, index) => {
      const started = performance.now();
      const output = decide(input);
      runs[index]!.push(performance.now() - started);
      if (pass === 0) outputs.push(output);
    });
  }
  return {
    outputs,
    medianMs: runs.map((list) => [...list].sort((left, right) => left - right)[Math.floor(list.length / 2)]!),
    firstRunMs: runs.map((list) => list[0]!),
  };
}
