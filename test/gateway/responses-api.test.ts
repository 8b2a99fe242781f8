import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let openai: OpenAI;

beforeAll(async () => {
  harness = await startHarness();
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

const shellTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'shell',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  strict: false,
};

interface UpstreamMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The conversation the upstream received, as chat messages whatever its format (Anthropic is read back too). */
function upstreamText(): string {
  return JSON.stringify(lastUpstreamRequest(harness).json);
}

// `gpt-test` is served by an OpenAI-compatible chat upstream, `claude-test` by an Anthropic one.
describe.each([
  ['an OpenAI-compatible chat upstream', 'gpt-test', '/v1/chat/completions'],
  ['an Anthropic upstream', 'claude-test', '/v1/messages'],
])('Responses API through %s', (_label, model, upstreamPath) => {
  it('answers a text request with instructions (responses.create)', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'Hello from upstream.', usage: { inputTokens: 12, outputTokens: 4 } });
    const response = await openai.responses.create({ model, instructions: 'Be brief.', input: 'Say hello.' });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe('Hello from upstream.');
    expect(response.usage?.input_tokens).toBe(12);
    expect(response.usage?.output_tokens).toBe(4);
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe(upstreamPath);
    expect(upstreamText()).toContain('Be brief.');
    expect(upstreamText()).toContain('Say hello.');
  });

  it('returns a function call, then continues from previous_response_id with its output', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'shell', arguments: { command: 'ls' }, id: 'call_ls1' }] });
    const first = await openai.responses.create({ model, input: 'List the files.', tools: [shellTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'shell', call_id: 'call_ls1' });
    expect(JSON.parse(call?.type === 'function_call' ? call.arguments : '')).toEqual({ command: 'ls' });

    harness.upstream.enqueue({ kind: 'synthetic', text: 'There is a.txt.' });
    const second = await openai.responses.create({
      model,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_ls1', output: 'a.txt' }],
      tools: [shellTool],
    });
    expect(second.output_text).toBe('There is a.txt.');
    expect(second.previous_response_id).toBe(first.id);
    // The upstream saw the whole conversation: the question, the call and its result.
    const sent = upstreamText();
    expect(sent).toContain('List the files.');
    expect(sent).toContain('call_ls1');
    expect(sent).toContain('a.txt');
    if (upstreamPath === '/v1/chat/completions') {
      const messages = (lastUpstreamRequest(harness).json as { messages: UpstreamMessage[] }).messages;
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(messages[1]?.tool_calls?.[0]?.function.name).toBe('shell');
      expect(messages[2]?.tool_call_id).toBe('call_ls1');
    }
  });

  it('streams text with the full event sequence (responses.stream)', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'one two three', usage: { inputTokens: 9, outputTokens: 3 } });
    const stream = openai.responses.stream({ model, input: 'Count.' });
    const types: string[] = [];
    let deltas = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
    }
    const final = await stream.finalResponse();
    expect(deltas).toBe('one two three');
    expect(final.output_text).toBe('one two three');
    expect(final.usage?.output_tokens).toBe(3);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    for (const expected of ['response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done']) {
      expect(types).toContain(expected);
    }
  });

  it('streams a function call with argument deltas, and a streamed turn can be continued', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'shell', arguments: { command: 'ls -la' }, id: 'call_s1' }], argumentFragments: 4 });
    const stream = openai.responses.stream({ model, input: 'List everything.', tools: [shellTool] });
    let argumentDeltas = 0;
    for await (const event of stream) if (event.type === 'response.function_call_arguments.delta') argumentDeltas += 1;
    const first = await stream.finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    expect(argumentDeltas).toBeGreaterThan(1);
    expect(call?.type === 'function_call' ? JSON.parse(call.arguments) : undefined).toEqual({ command: 'ls -la' });

    harness.upstream.enqueue({ kind: 'synthetic', text: 'Done.' });
    const next = openai.responses.stream({ model, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: 'call_s1', output: 'a.txt b.txt' }] });
    expect((await next.finalResponse()).output_text).toBe('Done.');
    expect(upstreamText()).toContain('a.txt b.txt');
    expect(upstreamText()).toContain('List everything.');
  });
});

describe('stored responses', () => {
  it('retrieves, lists input items of, and deletes a stored response', async () => {
    const created = await openai.responses.create({ model: 'gpt-test', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Remember me.' }] }] });
    const retrieved = await openai.responses.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.output_text).toBe(created.output_text);
    const items = await openai.responses.inputItems.list(created.id);
    expect(JSON.stringify(items.data)).toContain('Remember me.');
    await openai.responses.delete(created.id);
    await expect(openai.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('keeps nothing with store: false', async () => {
    const created = await openai.responses.create({ model: 'gpt-test', input: 'Forget me.', store: false });
    await expect(openai.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('answers an unknown previous_response_id with 404, and calls no provider', async () => {
    await expect(openai.responses.create({ model: 'gpt-test', input: 'hi', previous_response_id: 'resp_missing' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(harness.upstream.requests).toHaveLength(0);
  });

  it('refuses a malformed body in the OpenAI error format', async () => {
    const response = await fetch(`${harness.openAiBaseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'hi' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('Responses requests in the gateway', () => {
  it('are routed, failed over and recorded like chat requests', async () => {
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const before = harness.observer.records.length;
    const response = await openai.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(response.status).toBe('completed');
    const records = await harness.observer.waitFor(before + 1);
    const record = records.at(-1);
    expect(record?.endpoint).toBe('/v1/responses');
    expect(record?.servedModel).toBe('big-test');
    expect(record?.attempts.length).toBe(2);
  });
});
