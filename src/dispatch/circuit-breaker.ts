import type { BreakerSettings, BreakerState } from '../store/routing-state-channel.js';
import { OutcomeWindow } from './outcome-window.js';

// The breaker's state and settings live beside the store that shares them between instances.
export type { BreakerSettings, BreakerState };

interface Circuit {
  outcomes: OutcomeWindow;
  state: BreakerState;
  openedAt: number;
  trialInFlight: boolean;
}

/**
 * One circuit per (provider, model). It opens when, over a sliding window, at least `minCalls` calls were made
 * and the failure rate reached `failureRate`; after `openMs` it half-opens and lets one trial call through,
 * whose outcome closes or re-opens it. Only upstream faults count (5xx, timeouts, resets), never a client's 4xx.
 */
export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
    private readonly onChange?: (key: string, state: BreakerState) => void,
  ) {}

  private circuit(key: string): Circuit {
    let circuit = this.circuits.get(key);
    if (!circuit) {
      circuit = { outcomes: new OutcomeWindow(), state: 'closed', openedAt: 0, trialInFlight: false };
      this.circuits.set(key, circuit);
    }
    return circuit;
  }

  state(key: string): BreakerState {
    const circuit = this.circuits.get(key);
    if (!circuit) return 'closed';
    if (circuit.state === 'open' && this.now() - circuit.openedAt >= this.settings.openMs) {
      this.transition(key, circuit, 'half-open');
    }
    return circuit.state;
  }

  /** Whether a call may go through now; in half-open state only one trial at a time. */
  allow(key: string): boolean {
    const state = this.state(key);
    if (state === 'closed') return true;
    if (state === 'open') return false;
    const circuit = this.circuit(key);
    if (circuit.trialInFlight) return false;
    circuit.trialInFlight = true;
    return true;
  }

  record(key: string, ok: boolean): void {
    const circuit = this.circuit(key);
    const at = this.now();
    if (circuit.state === 'half-open') {
      circuit.trialInFlight = false;
      circuit.outcomes.clear();
      if (ok) this.transition(key, circuit, 'closed');
      else this.open(key, circuit, at);
      return;
    }
    const outcomes = circuit.outcomes;
    outcomes.record(at, ok, at - this.settings.windowMs);
    if (circuit.state !== 'closed' || outcomes.calls < this.settings.minCalls) return;
    if (outcomes.failures / outcomes.calls >= this.settings.failureRate) this.open(key, circuit, at);
  }

  /** Releases a half-open trial that ended without a verdict (e.g. the client left). */
  release(key: string): void {
    const circuit = this.circuits.get(key);
    if (circuit) circuit.trialInFlight = false;
  }

  snapshot(): Record<string, BreakerState> {
    const result: Record<string, BreakerState> = {};
    for (const key of this.circuits.keys()) result[key] = this.state(key);
    return result;
  }

  private open(key: string, circuit: Circuit, at: number): void {
    circuit.openedAt = at;
    circuit.outcomes.clear();
    this.transition(key, circuit, 'open');
  }

  private transition(key: string, circuit: Circuit, state: BreakerState): void {
    if (circuit.state === state) return;
    circuit.state = state;
    this.onChange?.(key, state);
  }
}
