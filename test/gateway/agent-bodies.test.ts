import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentBodyShapes } from '../support/agent-bodies/index.js';
import { claudeCodeShapes } from '../support/agent-bodies/claude-code.js';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

async function send(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${harness.gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer x', 'x-api-key': 'x', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

// `claude-test` is served by an Anthropic upstream, `gpt-test` by an OpenAI-compatible one: every shape goes
// once to its own format and once across.
describe.each(['claude-test', 'gpt-test'])('every captured agent shape is served (model %s)', (model) => {
  it.each(agentBodyShapes.map((shape) => [`${shape.agent}: ${shape.name}`, shape] as const))('%s', async (_label, shape) => {
    const answer = await send(shape.path.replace('{model}', model), shape.headers, shape.body(model));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).not.toContain('invalid_request');
    expect(harness.upstream.requests).toHaveLength(1);
  });
});

describe('Claude Code: a system message inside messages', () => {
  const [firstTurn] = claudeCodeShapes;
  if (!firstTurn) throw new Error('no Claude Code shape');

  it('reaches an Anthropic upstream unchanged, with the beta query and headers', async () => {
    const sent = firstTurn.body('claude-test');
    await send(firstTurn.path, firstTurn.headers, sent);
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.query).toBe('?beta=true');
    expect(upstream.headers['anthropic-beta']).toBe(firstTurn.headers['anthropic-beta']);
    const body = upstream.json as Record<string, unknown>;
    expect(body.messages).toEqual(sent.messages);
    // Fields the gateway has no use for go on as they came.
    expect(body.context_management).toEqual(sent.context_management);
    expect(body.output_config).toEqual(sent.output_config);
    expect((body.tools as { defer_loading?: boolean }[]).some((tool) => tool.defer_loading === true)).toBe(true);
  });

  it('is folded into the leading system message for a chat-completions upstream', async () => {
    await send(firstTurn.path, firstTurn.headers, firstTurn.body('gpt-test'));
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe('/v1/chat/completions');
    expect(upstream.query).toBe('');
    const messages = (upstream.json as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toContain('You are a coding agent.');
    expect(messages[0]?.content).toContain('Environment notes from the agent.');
  });

  it('still refuses a role no API has, in the Anthropic error format', async () => {
    const answer = await send('/v1/messages', {}, { model: 'claude-test', max_tokens: 10, messages: [{ role: 'narrator', content: 'hi' }] });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
