import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

// OpenAI's reasoning models refuse `max_tokens` ("Unsupported parameter: 'max_tokens' … Use
// 'max_completion_tokens' instead"): whatever field the client's API had, a provider of kind `openai` gets the
// limit as `max_completion_tokens`; an OpenAI-compatible server keeps `max_tokens`, the field they all know.
let harness: Harness;
let openai: OpenAI;

beforeAll(async () => {
  harness = await startHarness((upstreamUrl) => ({
    providers: [
      { id: 'openai', kind: 'openai', base_url: `${upstreamUrl}/v1`, api_key: 'sk-openai-test', models: ['o3-mini', 'gpt-5-mini'] },
      { id: 'local', kind: 'openai-compatible', base_url: `${upstreamUrl}/v1`, api_key: 'sk-local', models: ['gpt-test'] },
    ],
    default_model: 'gpt-test',
  }));
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

function sentBody(): Record<string, unknown> {
  return lastUpstreamRequest(harness).json as Record<string, unknown>;
}

describe('the output limit sent to OpenAI reasoning models', () => {
  // A Responses client reaches OpenAI's own /v1/responses with `max_output_tokens` and `reasoning` as they are
  // (test/gateway/responses-passthrough.test.ts); an Anthropic client's `max_tokens` is translated here.
  it.each(['o3-mini', 'gpt-5-mini'])('an Anthropic client’s max_tokens and thinking reach %s as max_completion_tokens and reasoning_effort', async (model) => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'ok' });
    const response = await fetch(`${harness.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'Hi.' }] }),
    });
    expect(response.status).toBe(200);
    const body = sentBody();
    expect(body['max_completion_tokens']).toBe(4096);
    expect(body).not.toHaveProperty('max_tokens');
    expect(typeof body['reasoning_effort']).toBe('string');
  });

  it('a chat client’s max_tokens reaches an OpenAI reasoning model as max_completion_tokens', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'ok' });
    await openai.chat.completions.create({ model: 'o3-mini', messages: [{ role: 'user', content: 'Hi.' }], max_tokens: 32 });
    expect(sentBody()['max_completion_tokens']).toBe(32);
    expect(sentBody()).not.toHaveProperty('max_tokens');
  });

  it('an OpenAI-compatible server still gets max_tokens (a Responses max_output_tokens translated)', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'ok' });
    await openai.responses.create({ model: 'gpt-test', input: 'Hi.', max_output_tokens: 64 });
    expect(sentBody()['max_tokens']).toBe(64);
    expect(sentBody()).not.toHaveProperty('max_completion_tokens');
  });
});
