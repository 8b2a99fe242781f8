/** A moving average of each deployment's time to first byte, to break cost ties toward the faster model. */
export class LatencyTracker {
  private readonly averages = new Map<string, number>();

  constructor(private readonly weight = 0.2) {}

  observe(qualifiedName: string, milliseconds: number): void {
    const previous = this.averages.get(qualifiedName);
    this.averages.set(qualifiedName, previous === undefined ? milliseconds : previous + this.weight * (milliseconds - previous));
  }

  /** Undefined until the deployment has answered once. */
  average(qualifiedName: string): number | undefined {
    return this.averages.get(qualifiedName);
  }
}
