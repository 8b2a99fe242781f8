import { describe, expect, it } from 'vitest';
import type { Turn } from '../core/turn.js';
import { readClientHints } from '../server/client-hints.js';
import { resolveSessionIdentity } from './session-identity.js';

function turn(headers: Record<string, string>, body: Record<string, unknown> = {}): Turn {
  return {
    requestId: 'hr_test',
    receivedAt: 0,
    format: 'openai-chat',
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...body },
    requestedModel: 'm',
    stream: false,
    messages: [{ role: 'user', text: 'hi', toolCallNames: [], hasImage: false }],
    tools: [],
    hasImages: false,
    estimatedInputTokens: 1,
    hints: readClientHints(headers),
  };
}

const codexMetadata = JSON.stringify({ session_id: 'codex-thread', turn_id: 't1' });

describe('session identity of the agents people use', () => {
  it.each([
    ['Hermes affinity header', { 'x-hermes-session-affinity': 'hermes-1' }, 'hermes-1'],
    ['opencode', { 'x-session-id': 'ses_open', 'x-session-affinity': 'ses_open' }, 'ses_open'],
    ['Claude Code', { 'x-claude-code-session-id': 'claude-1' }, 'claude-1'],
    ['Codex session-id', { 'session-id': 'codex-1', 'x-codex-turn-metadata': codexMetadata }, 'codex-1'],
    ['Codex turn metadata alone', { 'x-codex-turn-metadata': codexMetadata }, 'codex-thread'],
  ])('%s', (_agent, headers, expected) => {
    expect(resolveSessionIdentity(turn(headers))).toEqual({ id: expected, source: 'header' });
  });

  it('lets the gateway header win over an agent header', () => {
    expect(resolveSessionIdentity(turn({ 'x-claude-code-session-id': 'claude-1', 'x-hermes-session-affinity': 'mine' })).id).toBe('mine');
  });

  it('reads prompt_cache_key and Claude Code metadata from the body', () => {
    expect(resolveSessionIdentity(turn({}, { prompt_cache_key: 'thread-9' }))).toEqual({ id: 'thread-9', source: 'body' });
    const metadata = { user_id: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 'claude-body' }) };
    expect(resolveSessionIdentity(turn({}, { metadata }))).toEqual({ id: 'claude-body', source: 'body' });
    expect(resolveSessionIdentity(turn({}, { metadata: { user_id: 'plain-user' } })).id).toBe('plain-user');
  });

  it('falls back to the fingerprint (Hermes), stable for the same conversation start', () => {
    const first = resolveSessionIdentity(turn({}));
    expect(first.source).toBe('fingerprint');
    expect(resolveSessionIdentity(turn({})).id).toBe(first.id);
  });
});
