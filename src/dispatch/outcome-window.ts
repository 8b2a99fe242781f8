/**
 * The calls and failures a circuit saw over a sliding window, kept so that recording one costs the same however
 * busy the deployment is. Outcomes are counted per millisecond in a ring of typed arrays, oldest first, with
 * running totals: recording adds to the newest millisecond (or appends one), and what fell out of the window is
 * dropped from the front.
 *
 * Why not an array of `{ at, ok }`: at ~500 requests per second a 60 s window holds ~30,000 of them, and counting
 * the failures with `filter` plus `shift()` (which copies the whole array once it is in V8's large-object space)
 * cost ~170 us per request, and every outcome was an object kept for a minute, promoted out of the young
 * generation and marked at every full collection (docs/deployment.md, "The circuit breaker's window").
 * Here nothing is allocated per call, and the ring never holds more entries than the window has milliseconds.
 */
export class OutcomeWindow {
  #at = new Float64Array(initialCapacity);
  #calls = new Uint32Array(initialCapacity);
  #failures = new Uint32Array(initialCapacity);
  /** Index of the oldest entry, and how many entries there are. */
  #head = 0;
  #size = 0;
  #totalCalls = 0;
  #totalFailures = 0;

  /** Calls in the window. */
  get calls(): number {
    return this.#totalCalls;
  }

  /** Failed calls in the window. */
  get failures(): number {
    return this.#totalFailures;
  }

  /** One outcome at `at` (ms), after dropping what is older than `horizon`. */
  record(at: number, ok: boolean, horizon: number): void {
    const newest = (this.#head + this.#size - 1) & (this.#at.length - 1);
    if (this.#size > 0 && this.#at[newest] === at) {
      this.#calls[newest] = (this.#calls[newest] ?? 0) + 1;
      if (!ok) this.#failures[newest] = (this.#failures[newest] ?? 0) + 1;
    } else {
      if (this.#size === this.#at.length) this.#resize(this.#at.length * 2);
      const slot = (this.#head + this.#size) & (this.#at.length - 1);
      this.#at[slot] = at;
      this.#calls[slot] = 1;
      this.#failures[slot] = ok ? 0 : 1;
      this.#size += 1;
    }
    this.#totalCalls += 1;
    if (!ok) this.#totalFailures += 1;
    this.#forgetBefore(horizon);
  }

  /** Forgets every outcome (a circuit that opened or closed starts a fresh window). */
  clear(): void {
    this.#head = 0;
    this.#size = 0;
    this.#totalCalls = 0;
    this.#totalFailures = 0;
    if (this.#at.length > initialCapacity) this.#resize(initialCapacity);
  }

  /**
   * Drops entries from the front while they are older than `horizon`, as the array this replaces did with
   * `shift()`: in the order they were recorded, so a clock that stepped back keeps what follows an older entry.
   */
  #forgetBefore(horizon: number): void {
    const mask = this.#at.length - 1;
    while (this.#size > 0 && (this.#at[this.#head] ?? horizon) < horizon) {
      this.#totalCalls -= this.#calls[this.#head] ?? 0;
      this.#totalFailures -= this.#failures[this.#head] ?? 0;
      this.#head = (this.#head + 1) & mask;
      this.#size -= 1;
    }
    // A burst that has passed gives its memory back.
    if (this.#at.length > initialCapacity && this.#size < this.#at.length / 4) this.#resize(this.#at.length / 2);
  }

  /** Copies the entries, oldest first, into arrays of `capacity` (a power of two, at least the size). */
  #resize(capacity: number): void {
    const at = new Float64Array(capacity);
    const calls = new Uint32Array(capacity);
    const failures = new Uint32Array(capacity);
    const mask = this.#at.length - 1;
    for (let index = 0; index < this.#size; index += 1) {
      const from = (this.#head + index) & mask;
      at[index] = this.#at[from] ?? 0;
      calls[index] = this.#calls[from] ?? 0;
      failures[index] = this.#failures[from] ?? 0;
    }
    this.#at = at;
    this.#calls = calls;
    this.#failures = failures;
    this.#head = 0;
  }
}

/** A power of two, so that an index wraps with a mask. */
const initialCapacity = 16;
