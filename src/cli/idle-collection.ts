import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Full garbage collections when the gateway has gone quiet after work, so the memory a burst of requests left
 * behind goes back to the system instead of staying resident until the next burst.
 *
 * Why: with Node's default heap sizing a burst leaves V8's heap several times its live size (a Hermes request's
 * ~70 KB body, parsed and kept while the provider answers, is promoted and then waits for a full collection;
 * the young generation stays at 2 x 16 MB once grown). 10,000 live Hermes sessions held ~250-270 MB RSS after
 * their burst, and V8 did not collect any of it by itself in 18 s of quiet; collected, and the young generation
 * shrunk, they hold ~130 MB (bench/memory.ts, docs/deployment.md "Memory and start time"). A busy gateway is
 * never quiet, so this never runs under load and costs no request CPU. It runs once per quiet period, and only
 * when the heap grew by `minimumGrowthBytes` since the last time, so a gateway with sparse traffic (a request
 * every few seconds) does not pay a collection per request.
 *
 * Follow-ups: V8 shrinks the young generation at a full collection only when its recent allocation rate is low,
 * judged from the collections before; right after a burst it is not, so the first collection leaves it at its
 * grown size (2 x 16 MB). A few more, `followUpMs` apart while the gateway stays quiet, shrink it (measured: the
 * second to fourth one did); each costs a full collection of the live heap (~26 MB at 10,000 sessions).
 */
export interface IdleCollectionSettings {
  /** How long no request may have started or still be running before collecting. */
  idleMs: number;
  /** How often to look (an unref'd timer: it never keeps the process alive). */
  pollMs: number;
  /** Collect only when the heap (committed, plus memory outside it) grew this much since the last collection. */
  minimumGrowthBytes: number;
  /** While the young generation is larger than this after a collection, collect again `followUpMs` later… */
  settledYoungBytes: number;
  followUpMs: number;
  /** …at most this many times per quiet period. */
  maxFollowUps: number;
}

const megabyte = 1024 * 1024;

export const idleCollectionSettings: IdleCollectionSettings = {
  idleMs: 5000,
  pollMs: 1000,
  minimumGrowthBytes: 16 * megabyte,
  settledYoungBytes: 4 * megabyte,
  followUpMs: 2000,
  maxFollowUps: 4,
};

/** What the collector watches: the gateway's in-flight requests (`InFlightRequests`). */
export interface RequestActivity {
  /** Requests running now. */
  readonly size: number;
  /** Requests started since the process began (only ever grows). */
  readonly entered: number;
}

/** What the collector reads and does to the heap (this process's V8, or a test's stand-in). */
export interface HeapControl {
  /** The committed heap plus the memory its objects hold outside it (Buffers), in bytes. */
  footprint(): number;
  /** The young generation's committed size, in bytes. */
  youngGeneration(): number;
  collect(): void;
}

/**
 * A synchronous full collection. Node offers one only with `--expose-gc`; that flag, set at run time, puts `gc`
 * on the global object of contexts created afterwards, so a fresh context (dropped after the call) lends it.
 * The collection is of the whole heap, whichever context asked.
 */
export function collectGarbage(passes = 2): void {
  let collect = (globalThis as { gc?: () => void }).gc;
  if (typeof collect !== 'function') {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  // Twice: the pages the first one emptied are returned when its sweeping finishes (in the background, or at the
  // next collection). Measured at 10,000 sessions: one left 111 MB of heap committed (26 MB used), two 30-61 MB.
  for (let pass = 0; pass < passes; pass += 1) collect();
}

export const processHeap: HeapControl = {
  footprint() {
    const statistics = getHeapStatistics();
    return statistics.total_heap_size + statistics.external_memory;
  },
  youngGeneration() {
    return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  },
  collect: collectGarbage,
};

export class IdleCollector {
  private lastEntered: number;
  private quietSince: number;
  private busy = false;
  /** The quiet period already looked at (collected, or judged not worth it): at most one decision per period. */
  private decidedFor = Number.NaN;
  private footprintAfterLast: number;
  private followUpsLeft = 0;
  private lastCollectionAt = Number.NaN;
  /** Collections done (for tests). */
  collections = 0;

  constructor(
    private readonly activity: RequestActivity,
    private readonly settings: IdleCollectionSettings,
    now: number,
    private readonly heap: HeapControl = processHeap,
  ) {
    this.lastEntered = activity.entered;
    this.quietSince = now;
    this.footprintAfterLast = heap.footprint();
  }

  /** Looks once, at time `now` (ms, monotonic); collects when the gateway has been quiet long enough. */
  poll(now: number): void {
    if (this.activity.size > 0 || this.activity.entered !== this.lastEntered) {
      this.lastEntered = this.activity.entered;
      this.busy = true;
      this.followUpsLeft = 0;
      return;
    }
    // The first look that finds nothing running and nothing started since: quiet counts from here.
    if (this.busy) {
      this.busy = false;
      this.quietSince = now;
      return;
    }
    if (this.followUpsLeft > 0) {
      if (now - this.lastCollectionAt < this.settings.followUpMs) return;
      if (this.heap.youngGeneration() <= this.settings.settledYoungBytes) {
        this.followUpsLeft = 0;
        return;
      }
      this.followUpsLeft -= 1;
      this.collect(now);
      return;
    }
    if (now - this.quietSince < this.settings.idleMs || this.decidedFor === this.quietSince) return;
    this.decidedFor = this.quietSince;
    if (this.heap.footprint() - this.footprintAfterLast < this.settings.minimumGrowthBytes) return;
    this.collect(now);
    this.followUpsLeft = this.settings.maxFollowUps;
  }

  private collect(now: number): void {
    this.heap.collect();
    this.collections += 1;
    this.lastCollectionAt = now;
    this.footprintAfterLast = this.heap.footprint();
  }
}

/** Watches `activity` every `settings.pollMs` until `stop` is called. */
/**
 * One full collection right after the gateway listens, unless a request has already started. A start leaves its
 * heap at ~14-15 MB (~12 MB live) just under V8's first old-generation limit of 16 MB, so the first request's
 * allocation crossed it and that request paid the process's first full collection (marking on background
 * threads beside it, then a 3-30 ms pause; --trace-gc on the build machine). Collected here, while nothing
 * waits, the limit is set from the live heap (x 1.5 with the compact settings) and the first requests allocate
 * under it. On a timer that never keeps the process alive; returns it.
 */
export function collectAfterStart(activity: RequestActivity, collect: () => void = () => collectGarbage(1)): NodeJS.Timeout {
  const timer = setTimeout(() => {
    if (activity.entered === 0) collect();
  }, 0);
  timer.unref();
  return timer;
}

export function collectWhenIdle(activity: RequestActivity, settings: IdleCollectionSettings = idleCollectionSettings): { stop(): void } {
  const collector = new IdleCollector(activity, settings, performance.now());
  const timer = setInterval(() => collector.poll(performance.now()), settings.pollMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
