import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import {
  type Answer,
  answersJson,
  answersStream,
  deployment,
  failsWith,
  ScriptedProvider,
  scriptedDispatch,
  tried,
} from './test-support/scripted-dispatch.js';

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('the attempt loop succeeded');
}

const okEvent = { data: '{"choices":[{"delta":{"content":"hi"}}]}' };

describe('AttemptLoop: order and failover', () => {
  it('tries the candidates in order and stops at the first that answers', async () => {
    const a = new ScriptedProvider('a', [failsWith('upstream_server_error', { upstreamStatus: 500 })]);
    const b = new ScriptedProvider('b', [answersJson]);
    const c = new ScriptedProvider('c', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }, { provider: c }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm'), deployment('c', 'm')]);
    const success = await dispatch.loop.run(plan);
    expect(success.deployment.providerId).toBe('b');
    expect(tried(plan)).toEqual(['a/m a#1', 'b/m b#1']);
    expect(c.calls).toHaveLength(0);
    expect(plan.attempts[0]).toMatchObject({ status: 500, errorClass: 'upstream_server_error' });
  });

  it.each(['upstream_server_error', 'timeout', 'connection'] as const)(
    'after %s moves to the next candidate (not the next key) and rests the key',
    async (errorClass) => {
      const a = new ScriptedProvider('a', [failsWith(errorClass)]);
      const b = new ScriptedProvider('b', [answersJson]);
      const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }, { provider: b }]);
      const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')]);
      await dispatch.loop.run(plan);
      expect(tried(plan)).toEqual(['a/m a#1', 'b/m b#1']);
      expect(dispatch.cooldowns.isResting('a#1|m')).toBe(true);
    },
  );

  it.each([
    ['upstream_bad_request', 400],
    ['content_filter', 400],
    ['upstream_too_large', undefined],
  ] as const)('does not retry %s: it is final', async (errorClass, upstreamStatus) => {
    const a = new ScriptedProvider('a', [failsWith(errorClass, upstreamStatus === undefined ? {} : { upstreamStatus })]);
    const b = new ScriptedProvider('b', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }, { provider: b }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')]);
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe(errorClass);
    expect(tried(plan)).toEqual(['a/m a#1']);
  });

  it('after a 429 tries the next key of the same deployment, and rests the first for the Retry-After', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 7_000 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }]);
    const plan = dispatch.plan([deployment('a', 'm')]);
    const success = await dispatch.loop.run(plan);
    expect(success.key.id).toBe('a#2');
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#2']);
    expect(dispatch.cooldowns.remaining('a#1|m')).toBe(7_000);
    // The next request skips the resting key.
    const next = dispatch.plan([deployment('a', 'm')]);
    await dispatch.loop.run(next);
    expect(tried(next)).toEqual(['a/m a#2']);
  });

  it('rests a key after a 401 on every model, after a 403 on that model only', async () => {
    const a = new ScriptedProvider('a', [failsWith('upstream_auth', { upstreamStatus: 403 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }]);
    await dispatch.loop.run(dispatch.plan([deployment('a', 'm1')]));
    const key = { id: 'a#1', value: 'a1', hint: '…a1' };
    expect(dispatch.authRests.isResting(key, 'm1')).toBe(true);
    expect(dispatch.authRests.isResting(key, 'm2')).toBe(false);

    const b = new ScriptedProvider('b', [failsWith('upstream_auth', { upstreamStatus: 401 }), answersJson]);
    const other = scriptedDispatch([{ provider: b, keys: ['b1', 'b2'] }]);
    await other.loop.run(other.plan([deployment('b', 'm1')]));
    const bKey = { id: 'b#1', value: 'b1', hint: '…b1' };
    expect(other.authRests.isResting(bKey, 'm1')).toBe(true);
    expect(other.authRests.isResting(bKey, 'm2')).toBe(true);
  });

  it('after a context-length error skips candidates whose window is not larger', async () => {
    const small = new ScriptedProvider('small', [failsWith('context_length', { upstreamStatus: 400 })]);
    const same = new ScriptedProvider('same', [answersJson]);
    const large = new ScriptedProvider('large', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: small }, { provider: same }, { provider: large }]);
    const plan = dispatch.plan([deployment('small', 'm', 8_000), deployment('same', 'm', 8_000), deployment('large', 'm', 128_000)]);
    const success = await dispatch.loop.run(plan);
    expect(success.deployment.providerId).toBe('large');
    expect(tried(plan)).toEqual(['small/m small#1', 'large/m large#1']);
    expect(same.calls).toHaveLength(0);
  });

  it('skips a switched-off deployment and says so when nothing is left', async () => {
    const a = new ScriptedProvider('a', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }]);
    const plan = dispatch.plan([deployment('a', 'm')], { isEnabled: () => false });
    const error = await rejection(dispatch.loop.run(plan));
    expect(error.errorClass).toBe('unavailable');
    expect(error.message).toContain('a/m: switched off');
    expect(a.calls).toHaveLength(0);
  });

  it('tries the preferred key first (prompt-cache affinity), unless it is resting', async () => {
    const a = new ScriptedProvider('a', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2', 'a3'] }]);
    const plan = dispatch.plan([deployment('a', 'm')], { preferredKey: () => 'a#3' });
    expect((await dispatch.loop.run(plan)).key.id).toBe('a#3');
    dispatch.cooldowns.rest('a#3|m', 5_000);
    const resting = dispatch.plan([deployment('a', 'm')], { preferredKey: () => 'a#3' });
    expect((await dispatch.loop.run(resting)).key.id).toBe('a#1');
  });
});

describe('AttemptLoop: limits', () => {
  it('makes at most max_attempts attempts over all candidates and keys, then throws the last error', async () => {
    const providers = ['a', 'b', 'c', 'd', 'e'].map((id) => new ScriptedProvider(id, [failsWith('upstream_server_error', { upstreamStatus: 503 })]));
    const dispatch = scriptedDispatch(
      providers.map((provider) => ({ provider })),
      { maxAttempts: 3, retryAfterCapMs: 2_000, cooldownMs: 10_000 },
    );
    const plan = dispatch.plan(providers.map((provider) => deployment(provider.id, 'm')));
    const error = await rejection(dispatch.loop.run(plan));
    expect(error.errorClass).toBe('upstream_server_error');
    expect(tried(plan)).toEqual(['a/m a#1', 'b/m b#1', 'c/m c#1']);
  });

  it('counts keys against max_attempts too', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 60_000 })]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['1', '2', '3', '4', '5'] }], { maxAttempts: 2, retryAfterCapMs: 2_000, cooldownMs: 10_000 });
    const plan = dispatch.plan([deployment('a', 'm')]);
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('rate_limited');
    expect(plan.attempts).toHaveLength(2);
  });

  it('waits out a Retry-After within the cap, once, then tries again', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 1_500 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }]);
    const plan = dispatch.plan([deployment('a', 'm')]);
    await dispatch.loop.run(plan);
    expect(dispatch.sleeps).toEqual([1_500]);
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#1']);
  });

  it('does not wait out a Retry-After beyond the cap: the 429 goes back', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 2_001 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }]);
    const plan = dispatch.plan([deployment('a', 'm')]);
    const error = await rejection(dispatch.loop.run(plan));
    expect(error.errorClass).toBe('rate_limited');
    expect(dispatch.sleeps).toEqual([]);
    expect(a.calls).toHaveLength(1);
  });

  it('does not wait out the rest a 5xx, a timeout or a reset left, even within the cap: the failure goes back at once', async () => {
    for (const errorClass of ['upstream_server_error', 'timeout', 'connection'] as const) {
      const a = new ScriptedProvider('a', [failsWith(errorClass, { upstreamStatus: errorClass === 'upstream_server_error' ? 503 : 0 }), answersJson]);
      // cooldown_ms (1 s) within retry_after_cap_ms (2 s): the old loop slept it off and asked the failed deployment again.
      const dispatch = scriptedDispatch([{ provider: a }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
      const plan = dispatch.plan([deployment('a', 'm')]);
      expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe(errorClass);
      expect(dispatch.sleeps).toEqual([]);
      expect(a.calls).toHaveLength(1);
    }
  });

  it('asks again at once, without waiting, when the only key rests after another request’s failure (fail open)', async () => {
    // One provider, one key: a single 500 used to turn every request of the next cooldown_ms into a 503 that the
    // provider, recovered, would have answered.
    const a = new ScriptedProvider('a', [failsWith('upstream_server_error', { upstreamStatus: 500 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    await rejection(dispatch.loop.run(dispatch.plan([deployment('a', 'm')])));
    dispatch.clock.advance(500);
    const later = dispatch.plan([deployment('a', 'm')]);
    expect((await dispatch.loop.run(later)).deployment.providerId).toBe('a');
    expect(dispatch.sleeps).toEqual([]);
    expect(a.calls).toHaveLength(2);
  });

  it('prefers a candidate that is not resting: the last resort only runs when nothing at all was tried', async () => {
    const a = new ScriptedProvider('a', [failsWith('upstream_server_error', { upstreamStatus: 500 }), answersJson]);
    const b = new ScriptedProvider('b', [answersJson, answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    await dispatch.loop.run(dispatch.plan([deployment('a', 'm'), deployment('b', 'm')]));
    const later = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')]);
    await dispatch.loop.run(later);
    expect(tried(later)).toEqual(['b/m b#1']);
    expect(a.calls).toHaveLength(1);
  });

  it('keeps the rests the last resort must not override: a 429 beyond the cap, an authentication rest, an open circuit', async () => {
    const limited = new ScriptedProvider('limited', [answersJson]);
    const unauthorised = new ScriptedProvider('unauthorised', [answersJson]);
    const open = new ScriptedProvider('open', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: limited }, { provider: unauthorised }, { provider: open }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    dispatch.cooldowns.rest('limited#1|m', 60_000, 'rate-limited');
    dispatch.authRests.rest('unauthorised', { id: 'unauthorised#1', value: 'k', hint: '…k' }, 'm', 401, 'bad key');
    for (let index = 0; index < 3; index += 1) dispatch.breakers.record('open/m', false);
    dispatch.cooldowns.rest('open#1|m', 1_000);
    const plan = dispatch.plan([deployment('limited', 'm'), deployment('unauthorised', 'm'), deployment('open', 'm')]);
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('unavailable');
    expect(limited.calls.length + unauthorised.calls.length + open.calls.length).toBe(0);
  });

  it('still goes round again when a 429’s rest ran out while round 1 tried the other candidates', async () => {
    // Under load the walk over the fallback outlasts a short Retry-After: the old loop found no rest left to wait
    // for, and returned the fallback's 503 although the rate-limited key was usable again.
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 150 }), failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 150 }), answersJson]);
    const slowFallback: Answer = () => {
      dispatch.clock.advance(200);
      throw new GatewayError('upstream_server_error', 'scripted 503', { upstreamStatus: 503 });
    };
    const b = new ScriptedProvider('b', [slowFallback]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }, { provider: b }], { maxAttempts: 5, retryAfterCapMs: 2_000, cooldownMs: 10_000 });
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')]);
    const success = await dispatch.loop.run(plan);
    expect(success.deployment.providerId).toBe('a');
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#2', 'b/m b#1', 'a/m a#1']);
    expect(dispatch.sleeps).toEqual([0]);
  });

  it('waits out a 429 without Retry-After when its rest (cooldown_ms) is within the cap', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    const plan = dispatch.plan([deployment('a', 'm')]);
    await dispatch.loop.run(plan);
    expect(dispatch.sleeps).toEqual([1_000]);
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#1']);
  });

  it('a failure after a 429 on the same key is not waited out: the longer, later rest is the failure’s', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 500 }), failsWith('connection'), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    const plan = dispatch.plan([deployment('a', 'm')]);
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('connection');
    expect(dispatch.sleeps).toEqual([500]);
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#1']);
  });

  it('does not wait for a rest of a deployment it may not use (switched off, or circuit open)', async () => {
    const off = new ScriptedProvider('off', [answersJson]);
    const open = new ScriptedProvider('open', [answersJson]);
    const limited = new ScriptedProvider('limited', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 60_000 })]);
    const dispatch = scriptedDispatch([{ provider: off }, { provider: open }, { provider: limited }]);
    // Short rests on the two unusable deployments; the usable one rests far beyond the cap.
    dispatch.cooldowns.rest('off#1|m', 1_000);
    dispatch.cooldowns.rest('open#1|m', 1_000);
    for (let index = 0; index < 3; index += 1) dispatch.breakers.record('open/m', false);
    const plan = dispatch.plan([deployment('off', 'm'), deployment('open', 'm'), deployment('limited', 'm')], {
      isEnabled: (candidate) => candidate.providerId !== 'off',
    });
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('rate_limited');
    expect(dispatch.sleeps).toEqual([]);
    expect(off.calls.length + open.calls.length).toBe(0);
  });

  it('waits for the usable deployment’s rest, not a shorter one of a deployment switched off', async () => {
    const off = new ScriptedProvider('off', [answersJson]);
    const limited = new ScriptedProvider('limited', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 1_500 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: off }, { provider: limited }]);
    dispatch.cooldowns.rest('off#1|m', 100);
    const plan = dispatch.plan([deployment('off', 'm'), deployment('limited', 'm')], { isEnabled: (candidate) => candidate.providerId !== 'off' });
    expect((await dispatch.loop.run(plan)).deployment.providerId).toBe('limited');
    expect(dispatch.sleeps).toEqual([1_500]);
    expect(off.calls).toHaveLength(0);
  });

  it('does not wait out the cooldown of a deployment whose circuit its own failure just opened', async () => {
    const failing = new ScriptedProvider('failing', [failsWith('upstream_server_error', { upstreamStatus: 503 })]);
    const limited = new ScriptedProvider('limited', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 60_000 })]);
    // The limited deployment's rest is beyond the cap; the failing one's is a failure's, never waited out.
    const dispatch = scriptedDispatch([{ provider: failing }, { provider: limited }], { maxAttempts: 4, retryAfterCapMs: 2_000, cooldownMs: 1_000 });
    for (let index = 0; index < 2; index += 1) dispatch.breakers.record('failing/m', false);
    const plan = dispatch.plan([deployment('failing', 'm'), deployment('limited', 'm')]);
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('rate_limited');
    expect(dispatch.breakers.state('failing/m')).toBe('open');
    expect(dispatch.sleeps).toEqual([]);
    expect(tried(plan)).toEqual(['failing/m failing#1', 'limited/m limited#1']);
  });

  it('waits out a rest on a half-open deployment, and the trial goes through after the wait', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 500 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }]);
    for (let index = 0; index < 3; index += 1) dispatch.breakers.record('a/m', false);
    dispatch.clock.advance(30_000); // open_ms: the circuit half-opens
    const plan = dispatch.plan([deployment('a', 'm')]);
    expect((await dispatch.loop.run(plan)).deployment.providerId).toBe('a');
    expect(dispatch.sleeps).toEqual([500]);
    expect(tried(plan)).toEqual(['a/m a#1', 'a/m a#1']);
    expect(dispatch.breakers.state('a/m')).toBe('closed');
  });

  it('after a wait, does not try again a deployment whose window overflowed before it', async () => {
    const small = new ScriptedProvider('small', [failsWith('context_length', { upstreamStatus: 400 })]);
    const large = new ScriptedProvider('large', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 500 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: small, keys: ['s1', 's2'] }, { provider: large }]);
    // A short rest on the small deployment's other key: it must not be waited for either.
    dispatch.cooldowns.rest('small#2|m', 100);
    const plan = dispatch.plan([deployment('small', 'm', 8_000), deployment('large', 'm', 128_000)]);
    expect((await dispatch.loop.run(plan)).deployment.providerId).toBe('large');
    expect(dispatch.sleeps).toEqual([500]);
    expect(tried(plan)).toEqual(['small/m small#1', 'large/m large#1', 'large/m large#1']);
  });

  it('stops at once when the client has gone, without trying further candidates', async () => {
    const controller = new AbortController();
    const a = new ScriptedProvider('a', [
      () => {
        controller.abort();
        throw new GatewayError('connection', 'socket closed');
      },
    ]);
    const b = new ScriptedProvider('b', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')], { signal: controller.signal });
    expect((await rejection(dispatch.loop.run(plan))).errorClass).toBe('client_closed');
    expect(b.calls).toHaveLength(0);
  });
});

describe('AttemptLoop: streams', () => {
  it('fails over when the stream fails before its first event', async () => {
    const a = new ScriptedProvider('a', [answersStream([], new GatewayError('connection', 'reset'))]);
    const b = new ScriptedProvider('b', [answersStream([okEvent])]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')], { stream: true });
    const success = await dispatch.loop.run(plan);
    expect(success.deployment.providerId).toBe('b');
    expect(success.stream?.first).toEqual(okEvent);
  });

  it('fails over when the first event is an error event or the stream is empty', async () => {
    const errorEvent = new ScriptedProvider('a', [answersStream([{ event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }])]);
    const empty = new ScriptedProvider('b', [answersStream([])]);
    const good = new ScriptedProvider('c', [answersStream([okEvent])]);
    const dispatch = scriptedDispatch([{ provider: errorEvent }, { provider: empty }, { provider: good }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm'), deployment('c', 'm')], { stream: true });
    expect((await dispatch.loop.run(plan)).deployment.providerId).toBe('c');
    expect(plan.attempts.map((attempt) => attempt.errorClass)).toEqual(['upstream_server_error', 'upstream_server_error', undefined]);
  });

  it('never retries once the first event is in hand: a later failure is the caller’s to report', async () => {
    const broken = new GatewayError('connection', 'reset mid-stream');
    const a = new ScriptedProvider('a', [answersStream([okEvent], broken)]);
    const b = new ScriptedProvider('b', [answersStream([okEvent])]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }]);
    const plan = dispatch.plan([deployment('a', 'm'), deployment('b', 'm')], { stream: true });
    const success = await dispatch.loop.run(plan);
    expect(success.deployment.providerId).toBe('a');
    await expect(success.stream?.rest.next()).rejects.toBe(broken);
    expect(b.calls).toHaveLength(0);
    expect(plan.attempts).toHaveLength(1);
  });
});

describe('AttemptLoop: circuit breakers', () => {
  it('skips a deployment whose circuit is open, and says so when nothing else is left', async () => {
    const a = new ScriptedProvider('a', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }]);
    for (let index = 0; index < 3; index += 1) dispatch.breakers.record('a/m', false);
    const plan = dispatch.plan([deployment('a', 'm')]);
    const error = await rejection(dispatch.loop.run(plan));
    expect(error.errorClass).toBe('unavailable');
    expect(error.message).toContain('a/m: circuit open');
    expect(a.calls).toHaveLength(0);
  });

  it('opens a circuit after repeated server errors, then sends one trial after the open time, which closes it', async () => {
    const a = new ScriptedProvider('a', [
      failsWith('upstream_server_error', { upstreamStatus: 500 }),
      failsWith('upstream_server_error', { upstreamStatus: 500 }),
      failsWith('upstream_server_error', { upstreamStatus: 500 }),
      answersJson,
    ]);
    const b = new ScriptedProvider('b', [answersJson]);
    const dispatch = scriptedDispatch([{ provider: a }, { provider: b }], { maxAttempts: 4, retryAfterCapMs: 0, cooldownMs: 1 });
    const candidates = [deployment('a', 'm'), deployment('b', 'm')];
    for (let request = 0; request < 3; request += 1) {
      dispatch.clock.advance(1); // past the 1 ms cooldown
      await dispatch.loop.run(dispatch.plan(candidates));
    }
    expect(dispatch.breakers.state('a/m')).toBe('open');
    const whileOpen = dispatch.plan(candidates);
    await dispatch.loop.run(whileOpen);
    expect(tried(whileOpen)).toEqual(['b/m b#1']);
    dispatch.clock.advance(30_000);
    const trial = dispatch.plan(candidates);
    expect((await dispatch.loop.run(trial)).deployment.providerId).toBe('a');
    expect(dispatch.breakers.state('a/m')).toBe('closed');
  });

  it('releases a half-open trial that ended without a verdict (a 429), so the next request may try', async () => {
    const a = new ScriptedProvider('a', [failsWith('rate_limited', { upstreamStatus: 429, retryAfterMs: 60_000 }), answersJson]);
    const dispatch = scriptedDispatch([{ provider: a, keys: ['a1', 'a2'] }], { maxAttempts: 1, retryAfterCapMs: 0, cooldownMs: 10_000 });
    for (let index = 0; index < 3; index += 1) dispatch.breakers.record('a/m', false);
    dispatch.clock.advance(30_000);
    await rejection(dispatch.loop.run(dispatch.plan([deployment('a', 'm')])));
    expect(dispatch.breakers.state('a/m')).toBe('half-open');
    expect(dispatch.breakers.allow('a/m')).toBe(true);
  });
});
