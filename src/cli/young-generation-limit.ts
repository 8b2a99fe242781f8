import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Lets a gateway with the compact heap settings (heap-settings.ts) grow its young generation while many requests
 * are in flight (`minimumInFlight`), up to `semiSpaceLimitMegabytes` per semi-space instead of V8's 16 MB, from
 * the 1-2 MB the settings hold it at while it starts and while few requests run.
 *
 * Why: held at 2 MB per semi-space, 32 streamed requests in flight filled the young generation every ~7 requests,
 * and each scavenge copied what the requests in flight hold (~0.6 MB): ~240 us of scavenges and ~60 us of full
 * collections per request of ~1.5 ms (--trace-gc, bench/overhead.ts's stream c=32 load). At 4 MB ~175 and ~58 us,
 * at 8 MB ~90 and ~20 us; but at 8 MB 10,000 live sessions held 143-146 MB RSS under load against 128 MB (the
 * gate is 150), at 4 MB 132 MB, so the limit is 4 MB (with the circuit breaker's window fixed too, stream c=32
 * reads 0.88-0.98 x the minimal proxy's CPU against 1.07-1.19 before; at 8 MB 0.76-0.85). At one request at a time the young generation holds little when it is scavenged,
 * so it is not grown there; a quiet gateway keeps it small (idle RSS does not move), and after a burst the
 * idle-time collection's follow-ups shrink it again (idle-collection.ts). docs/deployment.md, "The circuit
 * breaker's window, and the young generation under concurrency", has the runs.
 *
 * V8 reads its semi-space limit only when the heap is created, but the growth factor each time it grows the young
 * generation (after a scavenge that found enough survivors, doubling it at factor 2), and a factor of 1 stops
 * growth. So after every collection the factor is set to 2 while at least `minimumInFlight` requests run and one
 * more doubling stays within the limit, and to 1 otherwise. Collections reach this observer a turn of the event
 * loop later; only a single synchronous piece of work allocating tens of megabytes could grow it past the limit
 * before then (at most to V8's own 16 MB, Node's default). Deciding after every collection also puts the factor
 * back after V8 raised it: a factor below 2 becomes 2 for the whole process whenever a new heap is created (a
 * worker thread's).
 */
export function growYoungGenerationUnderLoad(
  activity: { readonly size: number },
  limits: YoungGenerationLimits,
  young: YoungGenerationControl = processYoungGeneration,
): { stop(): void } {
  let factor: number | undefined;
  const decide = () => {
    const wanted = activity.size >= limits.minimumInFlight ? growthFactor(young.semiSpaceCapacity(), limits.semiSpaceLimitMegabytes * megabyte) : 1;
    if (wanted === factor) return;
    factor = wanted;
    young.setGrowthFactor(wanted);
  };
  decide();
  const observer = young.observeCollections(decide);
  return { stop: () => observer.disconnect() };
}

export interface YoungGenerationLimits {
  /** At most this per semi-space (V8's own limit on 64-bit Node 20 is 16 MB). */
  semiSpaceLimitMegabytes: number;
  /** Grown only while at least this many requests are in flight. */
  minimumInFlight: number;
}

/** 2 (V8's default) while one more doubling of `capacity` stays within `limit`, else 1 (no growth). */
export function growthFactor(semiSpaceCapacity: number, semiSpaceLimit: number): 1 | 2 {
  return semiSpaceCapacity * 2 <= semiSpaceLimit ? 2 : 1;
}

const megabyte = 1024 * 1024;

/** What the limit reads and sets (this process's V8, or a test's stand-in). */
export interface YoungGenerationControl {
  /** The usable size of one semi-space now, in bytes (a little under its committed size: page headers). */
  semiSpaceCapacity(): number;
  setGrowthFactor(factor: number): void;
  /** Calls `after` after garbage collections (batched: once for all those since the last call). */
  observeCollections(after: () => void): { disconnect(): void };
}

export const processYoungGeneration: YoungGenerationControl = {
  semiSpaceCapacity() {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    return newSpace === undefined ? 0 : newSpace.space_used_size + newSpace.space_available_size;
  },
  setGrowthFactor(factor) {
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  },
  observeCollections(after) {
    const observer = new PerformanceObserver(after);
    observer.observe({ entryTypes: ['gc'] });
    return observer;
  },
};
