/** Until-times for things that must rest: a key on a model after a 429, a 5xx or a timeout. */
export class Cooldowns {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  rest(key: string, milliseconds: number): void {
    const until = this.now() + milliseconds;
    if (until > (this.until.get(key) ?? 0)) this.until.set(key, until);
  }

  isResting(key: string): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.until.delete(key);
      return false;
    }
    return true;
  }

  /** Milliseconds until `key` may be used again (0 when usable now). */
  remaining(key: string): number {
    return Math.max(0, (this.until.get(key) ?? 0) - this.now());
  }
}
