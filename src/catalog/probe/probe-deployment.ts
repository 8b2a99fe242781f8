import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { Provider, ProviderTimeouts } from '../../providers/provider.js';
import type { Deployment } from '../deployment.js';
import type { ProbeResult } from '../../store/probes/probe-results.js';
import { probeBody } from './probe-bodies.js';
import type { ProbeKind } from './probe-bodies.js';

export interface ProbeOutcome {
  result: ProbeResult;
  /** Why a capability stayed unknown (auth failed, rate limited, the plain request fails too). */
  notes: string[];
  calls: number;
}

type Verdict = { ok: true } | { ok: false; error: GatewayError };

async function call(provider: Provider, deployment: Deployment, kind: ProbeKind, apiKey: string | undefined, timeouts: ProviderTimeouts): Promise<Verdict> {
  try {
    const response = await provider.send({
      model: deployment.upstreamModel,
      body: probeBody(provider.format, deployment.upstreamModel, kind),
      stream: false,
      apiKey,
      signal: AbortSignal.timeout(timeouts.firstByteMs + timeouts.connectMs),
      timeouts,
      forwardHeaders: {},
    });
    if (response.kind === 'stream') {
      // Drain what a server that ignored `stream: false` sent.
      for await (const _event of response.events) void _event;
    }
    return { ok: true };
  } catch (caught) {
    return { ok: false, error: toGatewayError(caught) };
  }
}

/**
 * Checks tool calling and vision with one cheap call each. A success confirms the capability; a 400 denies it
 * only if a plain request to the same model succeeds (otherwise the 400 was about something else); any other
 * failure (auth, rate limit, outage) leaves it unknown.
 */
export async function probeDeployment(
  provider: Provider,
  deployment: Deployment,
  apiKey: string | undefined,
  timeouts: ProviderTimeouts,
  now: () => Date = () => new Date(),
): Promise<ProbeOutcome> {
  const result: ProbeResult = { probedAt: now().toISOString() };
  const notes: string[] = [];
  let calls = 0;
  let baseline: Verdict | undefined;
  for (const kind of ['tools', 'vision'] as const) {
    calls += 1;
    const verdict = await call(provider, deployment, kind, apiKey, timeouts);
    const field = kind === 'tools' ? 'supportsTools' : 'supportsVision';
    if (verdict.ok) {
      result[field] = true;
      continue;
    }
    const error = verdict.error;
    if (error.errorClass !== 'upstream_bad_request') {
      notes.push(`${kind}: unknown (${error.errorClass}: ${error.message.slice(0, 120)})`);
      continue;
    }
    if (baseline === undefined) {
      calls += 1;
      baseline = await call(provider, deployment, 'baseline', apiKey, timeouts);
    }
    if (baseline.ok) {
      result[field] = false;
      notes.push(`${kind}: rejected (${error.message.slice(0, 120)})`);
    } else {
      notes.push(`${kind}: unknown (a plain request fails too: ${baseline.error.message.slice(0, 120)})`);
    }
  }
  return { result, notes, calls };
}
