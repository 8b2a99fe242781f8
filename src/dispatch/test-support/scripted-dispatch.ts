import type { Deployment } from '../../catalog/deployment.js';
import type { AttemptRecord } from '../../core/ledger-record.js';
import { GatewayError, type ErrorClass } from '../../core/errors.js';
import type { Provider, ProviderCall, ProviderResponse, SseEvent } from '../../providers/provider.js';
import { AttemptLoop, type DispatchPlan, type ResilienceSettings } from '../attempt-loop.js';
import { CircuitBreakers, type BreakerSettings } from '../circuit-breaker.js';
import { Cooldowns } from '../cooldowns.js';
import { KeyAuthRests } from '../key-auth-rests.js';
import { KeyPool } from '../key-pool.js';

/**
 * An attempt loop over scripted providers and a hand-moved clock, for unit tests of dispatch: no sockets, no
 * sleeps, no timing. Each provider answers with a script of its own (one function per call).
 */

/** A clock tests move by hand; `sleep` moves it instead of waiting. */
export class ManualClock {
  current = 1_000_000;
  readonly now = (): number => this.current;
  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}

export type Answer = (call: ProviderCall) => ProviderResponse | Promise<ProviderResponse>;

/** A provider that answers its calls from a script; the call after the last reuses the last answer. */
export class ScriptedProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly format = 'openai-chat' as const;
  readonly calls: ProviderCall[] = [];

  constructor(
    readonly id: string,
    private readonly answers: Answer[],
  ) {}

  async send(call: ProviderCall): Promise<ProviderResponse> {
    this.calls.push(call);
    const answer = this.answers[Math.min(this.calls.length - 1, this.answers.length - 1)];
    if (answer === undefined) throw new Error(`provider ${this.id} has no script`);
    return answer(call);
  }

  check(): Promise<string[] | undefined> {
    return Promise.resolve(undefined);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export const answersJson: Answer = () => ({ kind: 'json', status: 200, headers: {}, body: { ok: true } });

export function failsWith(errorClass: ErrorClass, options: { upstreamStatus?: number; retryAfterMs?: number } = {}): Answer {
  return () => {
    throw new GatewayError(errorClass, `scripted ${errorClass}`, options);
  };
}

/** A stream that yields `events`, then (when given) throws `thenFails` instead of ending. */
export function answersStream(events: SseEvent[], thenFails?: GatewayError): Answer {
  return () => ({
    kind: 'stream',
    status: 200,
    headers: {},
    events: (async function* () {
      yield* events;
      if (thenFails) throw thenFails;
    })(),
  });
}

export function deployment(providerId: string, modelId: string, contextWindow?: number): Deployment {
  return {
    providerId,
    modelId,
    upstreamModel: modelId,
    qualifiedName: `${providerId}/${modelId}`,
    ...(contextWindow === undefined ? {} : { contextWindow }),
  };
}

export const breakerSettings: BreakerSettings = { windowMs: 60_000, minCalls: 3, failureRate: 0.5, openMs: 30_000 };

export const resilienceSettings: ResilienceSettings = { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 10_000 };

export interface ScriptedDispatch {
  loop: AttemptLoop;
  clock: ManualClock;
  breakers: CircuitBreakers;
  cooldowns: Cooldowns;
  authRests: KeyAuthRests;
  /** Every wait the loop asked for, in milliseconds. */
  sleeps: number[];
  plan(candidates: Deployment[], overrides?: Partial<DispatchPlan>): DispatchPlan;
}

/** One loop over `providers`, each with its keys (`undefined`: one keyless slot), sequential rotation. */
export function scriptedDispatch(
  providers: { provider: ScriptedProvider; keys?: (string | undefined)[]; rotation?: 'round-robin' | 'sequential' }[],
  settings: ResilienceSettings = resilienceSettings,
): ScriptedDispatch {
  const clock = new ManualClock();
  const breakers = new CircuitBreakers(breakerSettings, clock.now);
  const cooldowns = new Cooldowns(clock.now);
  const authRests = new KeyAuthRests({ firstRestMs: 60_000, maxRestMs: 600_000 }, () => {}, clock.now);
  const sleeps: number[] = [];
  const loop = new AttemptLoop({
    providers: new Map(providers.map(({ provider }) => [provider.id, provider])),
    keyPools: new Map(
      providers.map(({ provider, keys, rotation }) => [provider.id, new KeyPool(provider.id, rotation ?? 'sequential', keys ?? [undefined])]),
    ),
    timeoutsFor: () => ({ connectMs: 1_000, firstByteMs: 1_000, idleMs: 1_000 }),
    breakers,
    cooldowns,
    authRests,
    settings,
    sleep: (milliseconds) => {
      sleeps.push(milliseconds);
      clock.advance(milliseconds);
      return Promise.resolve();
    },
  });
  return {
    loop,
    clock,
    breakers,
    cooldowns,
    authRests,
    sleeps,
    plan(candidates, overrides = {}) {
      const attempts: AttemptRecord[] = [];
      return {
        candidates: candidates.map((candidate) => ({ deployment: candidate })),
        stream: false,
        signal: new AbortController().signal,
        forwardHeaders: {},
        prepare: () => ({ messages: [] }),
        attempts,
        ...overrides,
      };
    },
  };
}

/** `provider/model key` of each attempt, in order: what the loop tried. */
export function tried(plan: DispatchPlan): string[] {
  return plan.attempts.map((attempt) => `${attempt.provider}/${attempt.model} ${attempt.keyId}`);
}
