import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { openAiResponse, startFakeResponsesUpstream, textMessage, type FakeResponsesUpstream } from '../support/fake-responses-upstream.js';

// A provider of kind `openai` speaks the Responses API itself: a Responses client's body reaches its
// /v1/responses unchanged but for the model (hosted tools, `include`, encrypted reasoning, `store`,
// `previous_response_id` are OpenAI's business), and its answer reaches the client unchanged. Failover to a
// chat-completions provider translates, as for any other provider.
let openAiUpstream: FakeResponsesUpstream;
let harness: Harness;
let openai: OpenAI;

beforeAll(async () => {
  openAiUpstream = await startFakeResponsesUpstream();
  harness = await startHarness((upstreamUrl) => ({
    providers: [
      { id: 'openai', kind: 'openai', base_url: `${openAiUpstream.url}/v1`, api_key: 'sk-openai-test', models: ['gpt-5-mini'] },
      { id: 'local', kind: 'openai-compatible', base_url: `${upstreamUrl}/v1`, api_key: 'sk-local', models: ['gpt-test'] },
    ],
    default_model: 'gpt-5-mini',
    fallbacks: { 'gpt-5-mini': ['gpt-test'] },
    resilience: { cooldown_ms: 1_000, retry_after_cap_ms: 500 },
    // Plain bars: this file is about the wire pass-through. With cost-aware bars whether the 50-token shell tool
    // comes along on a fraction of a percent is the model's call (the seven-writer model keeps it, 0.27%).
    tool_routing: { thresholds: { miss_cost_tokens: 0 } },
  }));
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(async () => {
  await harness.close();
  await openAiUpstream.close();
});
beforeEach(() => {
  harness.upstream.reset();
  openAiUpstream.reset();
});

const shellTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'shell',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  strict: false,
};

const webSearchCall = { id: 'ws_up_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather Lisbon today' } };
const encryptedReasoning = { id: 'rs_up_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA-opaque' };

function lastOpenAiRequest(): Record<string, unknown> {
  const request = openAiUpstream.requests.at(-1);
  if (!request) throw new Error('OpenAI received nothing');
  return request.body;
}

describe('Responses API to OpenAI itself (same-format pass-through)', () => {
  it('forwards the body unchanged but for the model (and the routed tools), and returns OpenAI’s response (hosted tool calls, encrypted reasoning) as it came', async () => {
    openAiUpstream.enqueue({ kind: 'response', response: openAiResponse('resp_up_a', 'gpt-5-mini', [encryptedReasoning, webSearchCall, textMessage('msg_up_a', 'Found it.')]) });
    const request = {
      model: 'gpt-5-mini',
      // A request far from the shell's bar on any model ("hermes router" gave the shell 7-11%: routers are run from one).
      input: 'Search the web for today’s weather in Lisbon.',
      tools: [{ type: 'web_search' as const }, shellTool],
      include: ['reasoning.encrypted_content' as const],
      reasoning: { effort: 'low' as const },
      store: false,
      max_output_tokens: 500,
      text: { verbosity: 'low' as const },
    };
    const response = await openai.responses.create(request);
    expect(openAiUpstream.requests[0]?.path).toBe('/v1/responses');
    expect(openAiUpstream.requests[0]?.headers.authorization).toBe('Bearer sk-openai-test');
    const { tools: sentTools, prompt_cache_key: _cacheKey, ...sentRest } = lastOpenAiRequest();
    const { tools: _clientTools, ...requestRest } = request;
    expect(sentRest).toEqual(requestRest);
    // Tool routing narrowed the function tools to the request (web search): the hosted tool always stays, and the
    // gateway's request_toolset is a Responses function tool (not strict: its schema is open).
    expect(sentTools).toEqual([{ type: 'web_search' }, expect.objectContaining({ type: 'function', name: 'request_toolset', strict: false })]);
    expect(response.id).toBe('resp_up_a');
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'web_search_call', 'message']);
    expect(response.output[0]).toMatchObject({ encrypted_content: 'gAAAA-opaque' });
    expect(response.output_text).toBe('Found it.');
    expect(harness.upstream.requests).toHaveLength(0);
  });

  it('streams OpenAI’s events through (responses.stream) and records Responses usage with cached and reasoning tokens', async () => {
    openAiUpstream.enqueue({ kind: 'response', response: openAiResponse('resp_up_s', 'gpt-5-mini', [textMessage('msg_up_s', 'Streaming hello.')], { input: 900, cached: 768, output: 40, reasoning: 16 }) });
    const before = harness.observer.records.length;
    const stream = openai.responses.stream({ model: 'gpt-5-mini', input: 'Say hello.', tools: [{ type: 'web_search' }] });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(final.id).toBe('resp_up_s');
    expect(final.output_text).toBe('Streaming hello.');
    expect(types[0]).toBe('response.created');
    expect(types.filter((type) => type === 'response.output_text.delta')).toHaveLength(2);
    expect(types.at(-1)).toBe('response.completed');
    expect(lastOpenAiRequest()['stream']).toBe(true);
    // The streamed request's record, not the last to land: records land once their schema tokens are counted, so
    // the previous test's (a new tools shape, counted in slices) may land after this one.
    const record = (await harness.observer.waitFor(before + 1)).slice(before).find((landed) => landed.streaming);
    expect(record?.inboundFormat).toBe('openai-responses');
    expect(record?.servedProvider).toBe('openai');
    expect(record?.usage).toEqual({ inputTokens: 900, outputTokens: 40, cacheReadTokens: 768, cacheWriteTokens: 0, reasoningTokens: 16 });
  });

  it('continues from previous_response_id by passing the id to OpenAI when OpenAI served the response', async () => {
    openAiUpstream.enqueue({ kind: 'response', response: openAiResponse('resp_up_1', 'gpt-5-mini', [{ id: 'fc_up_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'shell', arguments: '{"command":"ls"}' }]) });
    const first = await openai.responses.create({ model: 'gpt-5-mini', input: 'List the files.', tools: [shellTool] });
    expect(first.id).toBe('resp_up_1');
    const output = { type: 'function_call_output' as const, call_id: 'call_1', output: 'a.txt' };
    const second = await openai.responses.create({ model: 'gpt-5-mini', previous_response_id: first.id, input: [output], tools: [shellTool] });
    expect(second.output_text).toBe('ok');
    expect(lastOpenAiRequest()['previous_response_id']).toBe('resp_up_1');
    expect(lastOpenAiRequest()['input']).toEqual([output]);
    const stored = await openai.responses.retrieve(second.id);
    expect(stored.output_text).toBe('ok');
  });

  it('continues at OpenAI a conversation another provider served, with its items in input instead of the id', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'First answer.' });
    const first = await openai.responses.create({ model: 'gpt-test', input: 'First question.' });
    expect(first.output_text).toBe('First answer.');
    const second = await openai.responses.create({ model: 'gpt-5-mini', previous_response_id: first.id, input: 'Second question.' });
    expect(second.output_text).toBe('ok');
    const sent = lastOpenAiRequest();
    expect(sent).not.toHaveProperty('previous_response_id');
    const input = sent['input'] as { id?: string }[];
    expect(JSON.stringify(input[0])).toContain('First question.');
    expect(JSON.stringify(input[1])).toContain('First answer.');
    expect(JSON.stringify(input.at(-1))).toContain('Second question.');
    expect(input.every((item) => item.id === undefined)).toBe(true);
  });

  it.each([false, true])('serves request_toolset itself and re-issues, the client seeing one response (stream: %s)', async (stream) => {
    const requestToolset = { id: 'fc_up_rt', type: 'function_call', status: 'completed', call_id: 'call_rt', name: 'request_toolset', arguments: '{"toolsets":["terminal"]}' };
    openAiUpstream.enqueue({ kind: 'response', response: openAiResponse('resp_up_r1', 'gpt-5-mini', [requestToolset]) });
    openAiUpstream.enqueue({ kind: 'response', response: openAiResponse('resp_up_r2', 'gpt-5-mini', [textMessage('msg_up_r2', 'Now with the shell.')]) });
    const request = { model: 'gpt-5-mini', input: `Search the web for the weather in ${stream ? 'Oslo' : 'Bergen'}.`, tools: [{ type: 'web_search' as const }, shellTool] };
    let text: string;
    let types: string[] = [];
    let sequence: number[] = [];
    if (stream) {
      const events = openai.responses.stream(request);
      for await (const event of events) {
        types.push(event.type);
        sequence.push(event.sequence_number);
      }
      text = (await events.finalResponse()).output_text;
    } else {
      const response = await openai.responses.create(request);
      text = response.output_text;
      types = response.output.map((item) => item.type);
      expect(JSON.stringify(response.output)).not.toContain('request_toolset');
    }
    expect(text).toBe('Now with the shell.');
    expect(openAiUpstream.requests).toHaveLength(2);
    const reissued = openAiUpstream.requests[1]?.body as { tools: { name?: string; type: string }[]; input: { type?: string; name?: string; output?: string }[] };
    const firstTools = (openAiUpstream.requests[0]?.body as { tools: { name?: string; type: string }[] }).tools;
    expect(firstTools.map((tool) => tool.name ?? tool.type)).toEqual(['web_search', 'request_toolset']);
    expect(reissued.tools.map((tool) => tool.name ?? tool.type)).toContain('shell');
    expect(reissued.input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output']);
    if (stream) {
      expect(types.filter((type) => type === 'response.created')).toHaveLength(1);
      expect(sequence).toEqual(sequence.map((_, index) => index));
      expect(types.at(-1)).toBe('response.completed');
    }
  });

  // Last: the 503 rests OpenAI's key for a while.
  it('fails over to a chat-completions provider by translating (hosted tools dropped), and answers a response object', async () => {
    openAiUpstream.enqueue({ kind: 'error', status: 503, message: 'overloaded' });
    harness.upstream.enqueue({ kind: 'synthetic', text: 'From the fallback.', usage: { inputTokens: 20, outputTokens: 4 } });
    const response = await openai.responses.create({ model: 'gpt-5-mini', instructions: 'Be brief.', input: 'List the files here with ls.', tools: [{ type: 'web_search' }, shellTool] });
    expect(response.object).toBe('response');
    expect(response.output_text).toBe('From the fallback.');
    expect(response.usage?.input_tokens).toBe(20);
    const chat = lastUpstreamRequest(harness);
    expect(chat.path).toBe('/v1/chat/completions');
    const body = chat.json as { messages: { role: string }[]; tools: { function: { name: string } }[] };
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const names = body.tools.map((tool) => tool.function.name);
    expect(names).toContain('shell');
    expect(names).not.toContain('web_search');
  });

});
