/** The part of a pino logger shared-state code uses. */
export interface StateLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export const silentStateLogger: StateLogger = { info() {}, warn() {} };

/**
 * Whether the shared routing state is reachable, as last observed. Logs once per transition (not once per
 * failed command, which under load would be thousands of lines) and mirrors the state into a gauge.
 */
export class SharedStateHealth {
  #available = true;
  #failures = 0;
  readonly #listeners: ((available: boolean) => void)[] = [];

  constructor(
    private readonly backend: string,
    private readonly logger: StateLogger = silentStateLogger,
  ) {}

  get available(): boolean {
    return this.#available;
  }

  /** Commands that failed since the process started. */
  get failures(): number {
    return this.#failures;
  }

  onChange(listener: (available: boolean) => void): void {
    this.#listeners.push(listener);
    listener(this.#available);
  }

  succeeded(): void {
    if (this.#available) return;
    this.#available = true;
    this.logger.info({ backend: this.backend }, 'shared routing state is reachable again; using it');
    for (const listener of this.#listeners) listener(true);
  }

  failed(operation: string, error: unknown): void {
    this.#failures += 1;
    if (!this.#available) return;
    this.#available = false;
    this.logger.warn(
      { backend: this.backend, operation, error: error instanceof Error ? error.message : String(error) },
      'shared routing state unreachable; failing open on this instance\'s local state',
    );
    for (const listener of this.#listeners) listener(false);
  }
}
