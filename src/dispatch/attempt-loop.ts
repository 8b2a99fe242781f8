import type { Deployment } from '../catalog/deployment.js';
import type { ApiFormat } from '../core/api-format.js';
import type { AttemptRecord } from '../core/ledger-record.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { Provider, ProviderResponse, ProviderTimeouts, SseEvent } from '../providers/provider.js';
import type { CircuitBreakers } from './circuit-breaker.js';
import type { Cooldowns } from './cooldowns.js';
import { firstEventError } from './first-event-error.js';
import type { KeyAuthRests } from './key-auth-rests.js';
import type { KeyPool, PooledKey } from './key-pool.js';
import { redactSecrets } from '../core/redact.js';
import { sleepUntilElapsed } from './sleep-until.js';

export interface ResilienceSettings {
  maxAttempts: number;
  retryAfterCapMs: number;
  cooldownMs: number;
}

/** A deployment to try, in order; model routing's `Candidate` is one (it also says why it is on the list). */
export interface DispatchCandidate {
  deployment: Deployment;
}

/** What the attempt loop needs from the rest of the gateway, per request. */
export interface DispatchPlan {
  candidates: readonly DispatchCandidate[];
  stream: boolean;
  signal: AbortSignal;
  forwardHeaders: Record<string, string>;
  /** Allow-listed client query parameters, like `forwardHeaders` used only by the provider they mean (`?beta=true`). */
  forwardQuery?: string;
  /** The format a provider is sent (one it speaks natively); the provider's own `format` when absent. */
  formatFor?(provider: Provider): ApiFormat;
  /** Builds the upstream body for a deployment in `format` (model name, translation when needed). */
  prepare(deployment: Deployment, provider: Provider, format: ApiFormat): JsonObject;
  /** Every attempt is appended here, also when the loop throws, so the ledger sees them all. */
  attempts: AttemptRecord[];
  /** Live switches: a deployment switched off is skipped at once (issue: model routing). */
  isEnabled?(deployment: Deployment): boolean;
  /** The key to try first on this deployment (its prompt cache is warm for the session), if usable. */
  preferredKey?(deployment: Deployment): string | undefined;
}

export interface DispatchSuccess {
  deployment: Deployment;
  provider: Provider;
  /** The format the provider was sent and answered in. */
  format: ApiFormat;
  key: PooledKey;
  attempt: AttemptRecord;
  response: ProviderResponse;
  /** For streams: the already-read first event and the iterator for the rest. */
  stream?: { first: SseEvent; rest: AsyncIterator<SseEvent> };
}

export interface DispatchDependencies {
  providers: Map<string, Provider>;
  keyPools: Map<string, KeyPool>;
  timeoutsFor(providerId: string): ProviderTimeouts;
  breakers: CircuitBreakers;
  cooldowns: Cooldowns;
  /** Keys resting after a 401 (every model) or a 403 (that model). */
  authRests: KeyAuthRests;
  settings: ResilienceSettings;
  sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
}

/** What one request's rounds share: why candidates were skipped, and the window that overflowed. */
interface WalkProgress {
  skipped: string[];
  contextFloor?: number;
  /**
   * Rest keys a 429 rested during this request (its own 429s, or rests it found and skipped). A round that outlasts
   * such a rest (a slow walk over the other candidates) must still have its second round: the key is usable now.
   */
  rateLimited: Set<string>;
}

/** Whether `deployment`'s window is known and not larger than one that already overflowed for this request. */
function overflows(deployment: Deployment, progress: WalkProgress): boolean {
  const floor = progress.contextFloor;
  return floor !== undefined && deployment.contextWindow !== undefined && deployment.contextWindow <= floor;
}

function restKey(key: PooledKey, deployment: Deployment): string {
  return `${key.id}|${deployment.modelId}`;
}

/**
 * Walks the candidates in order, trying each usable key, until one answers. Decides per error class: 429 rests
 * the key on that model (Retry-After honoured) and tries the next key; 401 rests the key, 403 the key on that
 * model (with a growing backoff, `key-auth-rests.ts`); 5xx, timeouts
 * and resets rest the key, count against the circuit and move to the next candidate; a context-length 400 moves
 * to a candidate with a larger window; other 4xx and content filters are final. When nothing is left, only 429
 * rests within `retryAfterCapMs` are waited out (once); a failure's rest never is. For streams the first event
 * is read here, so a stream that fails before its first byte still fails over.
 */
export class AttemptLoop {
  private readonly sleep: (milliseconds: number, signal: AbortSignal) => Promise<void>;

  constructor(private readonly dependencies: DispatchDependencies) {
    this.sleep = dependencies.sleep ?? sleepUntilElapsed;
  }

  async run(plan: DispatchPlan): Promise<DispatchSuccess> {
    const progress: WalkProgress = { skipped: [], rateLimited: new Set() };
    let lastError: GatewayError | undefined;
    // Round 2 only happens when everything was resting after a 429 (its Retry-After, or cooldown_ms without
    // one) short enough to wait out.
    for (let round = 0; round < 2; round += 1) {
      const outcome = await this.walk(plan, progress);
      if (outcome.success) return outcome.success;
      lastError = outcome.lastError ?? lastError;
      const wait = this.shortestRest(plan, progress);
      if (wait === undefined || wait > this.dependencies.settings.retryAfterCapMs) break;
      if (plan.attempts.length >= this.dependencies.settings.maxAttempts || plan.signal.aborted) break;
      await this.sleep(wait, plan.signal);
    }
    // Fail open: when nothing was tried because every key rests after an earlier request's failure (a single
    // provider with a single key rests 10 s after one 500), the provider may well have recovered, and without the
    // gateway the request would have reached it. Ask once more, ignoring only those failure rests; 429 rests,
    // authentication rests, switched-off models, open circuits and overflowed windows still hold.
    if (plan.attempts.length === 0 && lastError === undefined && !plan.signal.aborted) {
      const lastResort = await this.walk(plan, { ...progress, skipped: [] }, true);
      if (lastResort.success) return lastResort.success;
      lastError = lastResort.lastError;
    }
    if (lastError) throw lastError;
    throw new GatewayError('unavailable', `No model is available right now (${progress.skipped.join('; ') || 'nothing to try'}).`);
  }

  /**
   * The shortest 429 rest among the keys of deployments a second round could use. A deployment that is switched off,
   * whose circuit is open, or whose window is not larger than one that overflowed is skipped in round 2 whatever
   * its keys do, so its rest is not worth waiting for (the request would sleep up to `retry_after_cap_ms`, then
   * fail as it would have at once). The breaker is asked after round 1's verdicts were recorded: a circuit that
   * round 1 opened counts as open here.
   */
  private shortestRest(plan: DispatchPlan, progress: WalkProgress): number | undefined {
    let shortest: number | undefined;
    for (const candidate of plan.candidates) {
      const deployment = candidate.deployment;
      if (plan.isEnabled && !plan.isEnabled(deployment)) continue;
      if (overflows(deployment, progress)) continue;
      if (this.dependencies.breakers.state(deployment.qualifiedName) === 'open') continue;
      const pool = this.dependencies.keyPools.get(deployment.providerId);
      for (const key of pool?.keys ?? []) {
        // An authentication rest is long; it is not worth waiting out within a request.
        if (this.dependencies.authRests.isResting(key, deployment.modelId)) continue;
        // Only a 429's rest: a failure's says "move on", and sleeping to ask the same deployment again would
        // only delay the answer the request's other candidates (or its error) give now.
        const rest = restKey(key, deployment);
        const remaining = this.dependencies.cooldowns.waitable(rest);
        // A 429's rest that ran out while round 1 walked the other candidates: nothing left to wait.
        const expired = progress.rateLimited.has(rest) && !this.dependencies.cooldowns.isResting(rest);
        if (expired) return 0;
        if (remaining > 0 && (shortest === undefined || remaining < shortest)) shortest = remaining;
      }
    }
    return shortest;
  }

  /** `ignoreFailureRests`: the last resort of `run`, where a key resting after a 5xx, timeout or reset is usable. */
  private async walk(
    plan: DispatchPlan,
    progress: WalkProgress,
    ignoreFailureRests = false,
  ): Promise<{ success?: DispatchSuccess; lastError?: GatewayError }> {
    const { breakers, cooldowns, settings } = this.dependencies;
    const skipped = progress.skipped;
    let lastError: GatewayError | undefined;
    for (const candidate of plan.candidates) {
      const deployment = candidate.deployment;
      const name = deployment.qualifiedName;
      if (plan.attempts.length >= settings.maxAttempts) break;
      if (plan.isEnabled && !plan.isEnabled(deployment)) {
        skipped.push(`${name}: switched off`);
        continue;
      }
      if (overflows(deployment, progress)) {
        skipped.push(`${name}: context window not larger than the one that overflowed`);
        continue;
      }
      const provider = this.dependencies.providers.get(deployment.providerId);
      const pool = this.dependencies.keyPools.get(deployment.providerId);
      if (!provider || !pool) continue;
      const authRests = this.dependencies.authRests;
      const resting = (key: PooledKey): boolean =>
        ignoreFailureRests ? cooldowns.waitable(restKey(key, deployment)) > 0 : cooldowns.isResting(restKey(key, deployment));
      const rotated = pool.order((key) => resting(key) || authRests.isResting(key, deployment.modelId));
      for (const key of pool.keys) if (cooldowns.waitable(restKey(key, deployment)) > 0) progress.rateLimited.add(restKey(key, deployment));
      const preferred = plan.preferredKey?.(deployment);
      const keys = preferred === undefined ? rotated : [...rotated.filter((key) => key.id === preferred), ...rotated.filter((key) => key.id !== preferred)];
      if (keys.length === 0) {
        skipped.push(`${name}: every key is resting or disabled`);
        continue;
      }
      if (!breakers.allow(name)) {
        skipped.push(`${name}: circuit open`);
        continue;
      }
      let verdictGiven = false;
      try {
        for (const key of keys) {
          if (plan.attempts.length >= settings.maxAttempts) break;
          const result = await this.attempt(plan, deployment, provider, key);
          if ('success' in result) {
            breakers.record(name, true);
            authRests.succeeded(key, deployment.modelId);
            verdictGiven = true;
            return { success: result.success };
          }
          const error = result.error;
          lastError = error;
          if (error.errorClass === 'client_closed') throw error;
          if (error.errorClass === 'rate_limited') {
            cooldowns.rest(restKey(key, deployment), error.retryAfterMs ?? settings.cooldownMs, 'rate-limited');
            progress.rateLimited.add(restKey(key, deployment));
            continue;
          }
          if (error.errorClass === 'upstream_auth') {
            authRests.rest(deployment.providerId, key, deployment.modelId, error.upstreamStatus ?? 401, redactSecrets(error.message));
            continue;
          }
          if (error.errorClass === 'context_length') {
            // Kept for round 2 too: a window that overflowed once overflows again after any wait.
            progress.contextFloor = deployment.contextWindow ?? progress.contextFloor ?? 0;
            break;
          }
          if (error.errorClass === 'upstream_server_error' || error.errorClass === 'timeout' || error.errorClass === 'connection') {
            cooldowns.rest(restKey(key, deployment), settings.cooldownMs, 'failed');
            breakers.record(name, false);
            verdictGiven = true;
            break;
          }
          // Content filters and other 4xx: another model would be asked the same wrong thing.
          throw error;
        }
      } finally {
        if (!verdictGiven) breakers.release(name);
      }
    }
    return lastError ? { lastError } : {};
  }

  private async attempt(
    plan: DispatchPlan,
    deployment: Deployment,
    provider: Provider,
    key: PooledKey,
  ): Promise<{ success: DispatchSuccess } | { error: GatewayError }> {
    const startedAt = Date.now();
    const record: AttemptRecord = {
      provider: deployment.providerId,
      model: deployment.modelId,
      keyId: key.id,
      startedAt,
      durationMs: 0,
      status: 0,
    };
    plan.attempts.push(record);
    try {
      const format = plan.formatFor?.(provider) ?? provider.format;
      const body = plan.prepare(deployment, provider, format);
      const response = await provider.send({
        model: deployment.upstreamModel,
        format,
        body,
        stream: plan.stream,
        apiKey: key.value,
        signal: plan.signal,
        timeouts: this.dependencies.timeoutsFor(deployment.providerId),
        forwardHeaders: plan.forwardHeaders,
        ...(plan.forwardQuery !== undefined ? { forwardQuery: plan.forwardQuery } : {}),
        ...(deployment.shaping?.headers ? { extraHeaders: deployment.shaping.headers } : {}),
      });
      record.status = response.status;
      if (response.kind === 'stream') {
        const rest = response.events[Symbol.asyncIterator]();
        const first = await rest.next();
        if (first.done) throw new GatewayError('upstream_server_error', `provider ${deployment.providerId} sent an empty stream`);
        const streamError = firstEventError(first.value, deployment.providerId);
        if (streamError) {
          await rest.return?.();
          throw streamError;
        }
        record.durationMs = Date.now() - startedAt;
        return { success: { deployment, provider, format, key, attempt: record, response, stream: { first: first.value, rest } } };
      }
      record.durationMs = Date.now() - startedAt;
      return { success: { deployment, provider, format, key, attempt: record, response } };
    } catch (caught) {
      const error = plan.signal.aborted
        ? new GatewayError('client_closed', 'the client closed the connection', { cause: caught })
        : toGatewayError(caught);
      record.durationMs = Date.now() - startedAt;
      record.status = error.upstreamStatus ?? (record.status || 0);
      record.errorClass = error.errorClass;
      record.errorMessage = redactSecrets(error.message).slice(0, 500);
      return { error };
    }
  }
}
