/**
 * The requests a gateway is still handling. A handler keeps working after its client has the last byte (the
 * ledger row, the session's surface, returning the upstream socket to its pool), so a shutdown that stopped
 * at "no open connections" could close the ledger under a row still being written.
 */
export class InFlightRequests {
  private count = 0;
  private started = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Requests started since the gateway began (an idle-time collection tells quiet from busy by it). */
  get entered(): number {
    return this.started;
  }

  enter(): void {
    this.count += 1;
    this.started += 1;
  }

  leave(): void {
    this.count = Math.max(0, this.count - 1);
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when none is left, or after `timeoutMs` (true when they all finished). */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
    });
  }
}
