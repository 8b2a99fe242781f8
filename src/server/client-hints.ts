import type { IncomingHttpHeaders } from 'node:http';
import type { ClientHints } from '../core/turn.js';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined || single === '' ? undefined : single;
}

/**
 * Session headers, strongest first: the gateway's own, then what each agent sends on every request of a
 * conversation: opencode (`x-session-id`), Claude Code (`x-claude-code-session-id`), Codex (`session-id`, and the
 * `session_id` inside `x-codex-turn-metadata`).
 */
const sessionHeaders = ['x-hermes-session-affinity', 'x-session-id', 'x-claude-code-session-id', 'session-id'] as const;

function codexTurnSession(headers: IncomingHttpHeaders): string | undefined {
  const metadata = header(headers, 'x-codex-turn-metadata');
  if (metadata === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(metadata);
    const sessionId = typeof parsed === 'object' && parsed !== null && 'session_id' in parsed ? parsed.session_id : undefined;
    return typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : undefined;
  } catch {
    return undefined;
  }
}

/** Routing hints a client can send as headers (documented in the README). */
export function readClientHints(headers: IncomingHttpHeaders): ClientHints {
  const hints: ClientHints = {};
  const sessionId = sessionHeaders.map((name) => header(headers, name)).find((value) => value !== undefined) ?? codexTurnSession(headers);
  if (sessionId) hints.sessionId = sessionId.slice(0, 200);
  const workloadHint = header(headers, 'x-hermes-workload-hint');
  if (workloadHint) hints.workloadHint = workloadHint.toLowerCase();
  const toolLoop = header(headers, 'x-hermes-tool-loop');
  if (toolLoop) hints.toolLoop = toolLoop.toLowerCase() === 'true';
  const revision = header(headers, 'if-match');
  if (revision) hints.policyRevision = revision.replace(/^W\//, '').replace(/"/g, '');
  const userAgent = header(headers, 'user-agent');
  if (userAgent) hints.userAgent = userAgent.slice(0, 200);
  return hints;
}

/**
 * Query parameters passed on to the provider: the Anthropic SDK's beta client calls `/v1/messages?beta=true`
 * (Claude Code does). An allow-list, so nothing else a client appends reaches a provider.
 */
export function forwardableQuery(url: string | undefined): string | undefined {
  const queryStart = url?.indexOf('?') ?? -1;
  if (url === undefined || queryStart === -1) return undefined;
  const beta = new URLSearchParams(url.slice(queryStart + 1)).get('beta');
  return beta === 'true' ? '?beta=true' : undefined;
}

/** Headers passed on to a provider of the same format (Anthropic versioning and betas). */
export function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const value = header(headers, name);
    if (value) forwarded[name] = value;
  }
  return forwarded;
}
