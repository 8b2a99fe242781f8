import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import type { ReceivedRequest } from '../support/fake-upstream/index.js';

interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: object };
}

const hermesToolObjects = (JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as (OpenAiTool & { toolset: string })[]).map(
  ({ toolset: _toolset, ...tool }) => tool as OpenAiTool,
);
const hermesTools = hermesToolObjects as unknown as OpenAI.ChatCompletionTool[];
const anthropicTools = hermesToolObjects.map((tool) => ({
  name: tool.function.name,
  description: tool.function.description,
  input_schema: tool.function.parameters as Anthropic.Tool.InputSchema,
}));

let harness: Harness;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  harness = await startHarness((url) => defaultConfig(url));
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach((context) => {
  firstTurn = `${firstTurnText} (#${context.task.id})`;
  harness.upstream.reset();
  harness.gateway.gateway.toolRoutingMode = 'on';
});

function toolNamesOf(request: ReceivedRequest | undefined): string[] {
  const tools = ((request?.json as { tools?: unknown[] })?.tools ?? []) as Record<string, unknown>[];
  return tools.map((tool) => (typeof tool.name === 'string' ? tool.name : ((tool.function as { name: string } | undefined)?.name ?? '')));
}

function toolsBytes(request: ReceivedRequest | undefined): string {
  return JSON.stringify((request?.json as { tools?: unknown })?.tools);
}

/** A model that asks for the web toolset until it can see web_search, then answers. */
function webNeedingModel(request: ReceivedRequest) {
  if (toolNamesOf(request).includes('web_search')) return { kind: 'synthetic' as const, text: 'Here is what I found on the web.' };
  return { kind: 'synthetic' as const, toolCalls: [{ name: 'request_toolset', arguments: { toolsets: ['web'] } }] };
}

const firstTurnText = 'run the unit tests in this repository and fix the failing ones';
/** Each test gets its own session: the fingerprint includes the first user message. The tag is the test's id, not its
 * title: a title is English words the tool classifier reads as part of the request (a retrained model kept web for one). */
let firstTurn = firstTurnText;

describe('tool routing in the request path', () => {
  it('narrows a first turn, records the decision, and keeps later turns byte-identical', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: firstTurn }];
    await openai.chat.completions.create({ model: 'gpt-test', messages, tools: hermesTools });
    const first = harness.upstream.requests.at(-1);
    const sent = toolNamesOf(first);
    expect(sent.length).toBeLessThan(hermesTools.length);
    expect(sent).toContain('terminal');
    expect(sent.at(-1)).toBe('request_toolset');
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.tools).toMatchObject({ mode: 'on', outcome: 'narrowed', fullToolCount: hermesTools.length, sentToolCount: sent.length });
    expect(record?.decision.tools?.sentSchemaTokens).toBeLessThan(record?.decision.tools?.fullSchemaTokens ?? 0);

    await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [...messages, { role: 'assistant', content: 'On it.' }, { role: 'user', content: 'thanks, also check the lint' }],
      tools: hermesTools,
    });
    expect(toolsBytes(harness.upstream.requests.at(-1))).toBe(toolsBytes(first));
  });

  it('serves request_toolset inside the same non-streamed response; the client never sees it', async () => {
    harness.upstream.setScript({ respond: webNeedingModel });
    const { data: completion, response } = await openai.chat.completions
      .create({ model: 'gpt-test', messages: [{ role: 'user', content: firstTurn }], tools: hermesTools })
      .withResponse();
    expect(completion.choices[0]?.message.content).toBe('Here is what I found on the web.');
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    expect(harness.upstream.requests).toHaveLength(2);
    const reissued = harness.upstream.requests[1]?.json as { messages: { role: string; content: unknown; tool_calls?: unknown[] }[] };
    expect(toolNamesOf(harness.upstream.requests[1])).toContain('web_search');
    expect(reissued.messages.at(-2)?.tool_calls).toHaveLength(1);
    expect(String(reissued.messages.at(-1)?.content)).toMatch(/^READY/);
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.tools?.recoveries).toBe(1);
    expect(record?.attempts).toHaveLength(2);
    // The ledger bills both answers; the client's usage is the last one's; the overhead is the difference.
    const overhead = record?.decision.tools?.recoveryOverheadTokens ?? 0;
    expect(overhead).toBeGreaterThan(0);
    expect((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0) + overhead).toBe(
      (record?.usage?.inputTokens ?? 0) + (record?.usage?.outputTokens ?? 0),
    );
    expect(response.headers.get('x-hermes-router-recovery-overhead-tokens')).toBe(String(overhead));

    // The next turn is sent on the grown surface; its full surface is still the client's whole array.
    harness.upstream.reset();
    await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: firstTurn }, completion.choices[0]!.message, { role: 'user', content: 'and the tests?' }],
      tools: hermesTools,
    });
    const next = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(next?.decision.tools?.outcome).toBe('sticky');
    expect(next?.decision.tools?.fullSchemaTokens).toBe(record?.decision.tools?.fullSchemaTokens);
    expect(next?.decision.tools?.sentSchemaTokens).toBeLessThan(next?.decision.tools?.fullSchemaTokens ?? 0);
  });

  it('anticipates a later turn: the surface grows before the call (no request_toolset round trip), appended after the previous tools', async () => {
    harness.upstream.setScript({ respond: webNeedingModel });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: firstTurn }];
    harness.upstream.enqueue({ kind: 'synthetic', text: 'All green.' });
    const first = await openai.chat.completions.create({ model: 'gpt-test', messages, tools: hermesTools });
    const firstTools = (harness.upstream.requests.at(-1)?.json as { tools: unknown[] }).tools;
    expect(toolNamesOf(harness.upstream.requests.at(-1))).not.toContain('web_search');
    harness.upstream.reset();
    harness.upstream.setScript({ respond: webNeedingModel });
    const second = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [...messages, first.choices[0]!.message, { role: 'user', content: 'now search the web for the release notes of vitest 3' }],
      tools: hermesTools,
    });
    expect(second.choices[0]?.message.content).toBe('Here is what I found on the web.');
    expect(harness.upstream.requests).toHaveLength(1);
    const grownTools = (harness.upstream.requests[0]?.json as { tools: unknown[] }).tools;
    // Every tool of the previous call, request_toolset included, is still in front: the provider's cached prefix holds.
    expect(grownTools.slice(0, firstTools.length)).toEqual(firstTools);
    expect(toolNamesOf(harness.upstream.requests[0]).slice(firstTools.length)).toEqual(expect.arrayContaining(['web_search']));
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.tools).toMatchObject({ outcome: 'sticky', reason: 'anticipated', anticipatedToolsets: expect.arrayContaining(['web']) });
    expect(record?.decision.tools?.recoveries).toBeUndefined();
  });

  it('serves request_toolset inside one OpenAI stream', async () => {
    harness.upstream.setScript({ respond: webNeedingModel });
    const stream = await openai.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: firstTurn }], tools: hermesTools });
    let text = '';
    let sawToolCall = false;
    let finish: string | null | undefined;
    const ids = new Set<string>();
    for await (const chunk of stream) {
      ids.add(chunk.id);
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.choices[0]?.delta?.tool_calls) sawToolCall = true;
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(sawToolCall).toBe(false);
    expect(text).toBe('Here is what I found on the web.');
    expect(finish).toBe('stop');
    expect(harness.upstream.requests).toHaveLength(2);
    // One response keeps one id, though two upstream responses (two ids) made it.
    expect(ids.size).toBe(1);
  });

  it('serves request_toolset inside one Anthropic stream, as one message', async () => {
    harness.upstream.setScript({ respond: webNeedingModel });
    const final = await anthropic.messages
      .stream({ model: 'claude-test', max_tokens: 500, messages: [{ role: 'user', content: firstTurn }], tools: anthropicTools })
      .finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['text']);
    expect(final.content[0]?.type === 'text' ? final.content[0].text : '').toBe('Here is what I found on the web.');
    expect(final.stop_reason).toBe('end_turn');
    const reissued = harness.upstream.requests[1]?.json as { messages: { role: string; content: { type: string; content?: string }[] }[] };
    expect(reissued.messages.at(-2)?.content.at(-1)?.type).toBe('tool_use');
    expect(reissued.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool_result' });
  });

  it('answers an unknown toolset name with the list of valid ones', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'request_toolset', arguments: { toolsets: ['teleportation'] } }] });
    await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: firstTurn }], tools: hermesTools });
    const reissued = harness.upstream.requests[1]?.json as { messages: { content: unknown }[] };
    const result = String(reissued.messages.at(-1)?.content);
    expect(result).toContain('teleportation');
    expect(result).toMatch(/Valid toolsets: .*terminal/);
  });

  it('re-issues at most twice, then ends cleanly without showing request_toolset', async () => {
    harness.upstream.setScript({
      respond: { kind: 'synthetic', toolCalls: [{ name: 'request_toolset', arguments: { toolsets: ['web'] } }] },
    });
    const stream = await openai.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: firstTurn }], tools: hermesTools });
    let finish: string | null | undefined;
    let sawToolCall = false;
    for await (const chunk of stream) {
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.choices[0]?.delta?.tool_calls) sawToolCall = true;
    }
    expect(sawToolCall).toBe(false);
    expect(finish).toBe('stop');
    expect(harness.upstream.requests).toHaveLength(3);
  });

  it('passes a call to a pruned tool through and widens the session surface for the next turn', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: firstTurn }];
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'browser_navigate', arguments: { url: 'http://localhost' } }] });
    const completion = await openai.chat.completions.create({ model: 'gpt-test', messages, tools: hermesTools });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.name : '').toBe('browser_navigate');
    expect(toolNamesOf(harness.upstream.requests[0])).not.toContain('browser_navigate');
    await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [
        ...messages,
        { role: 'assistant', content: '', tool_calls: completion.choices[0]?.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: 'opened' },
      ],
      tools: hermesTools,
    });
    expect(toolNamesOf(harness.upstream.requests[1])).toContain('browser_navigate');
  });

  it('shadow mode decides and records but sends the full surface; off sends everything', async () => {
    harness.gateway.gateway.toolRoutingMode = 'shadow';
    await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: firstTurn }], tools: hermesTools });
    expect(toolNamesOf(harness.upstream.requests.at(-1))).toHaveLength(hermesTools.length);
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.tools?.mode).toBe('shadow');
    expect(record?.decision.tools?.reason).toMatch(/^shadow:/);
    expect(record?.decision.tools?.predictedToolsets).toContain('terminal');
  });

  it('router off restores the full surface of a narrowed session on its next turn', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: firstTurn }];
    await openai.chat.completions.create({ model: 'gpt-test', messages, tools: hermesTools });
    expect(toolNamesOf(harness.upstream.requests.at(-1)).length).toBeLessThan(hermesTools.length);
    harness.gateway.gateway.toolRoutingMode = 'off';
    const next = [...messages, { role: 'assistant' as const, content: 'ok' }, { role: 'user' as const, content: 'go on' }];
    await openai.chat.completions.create({ model: 'gpt-test', messages: next, tools: hermesTools });
    expect(toolNamesOf(harness.upstream.requests.at(-1))).toHaveLength(hermesTools.length);
    // Turned back on, the session stays on the full surface: narrowing midway could remove a tool in use.
    harness.gateway.gateway.toolRoutingMode = 'on';
    await openai.chat.completions.create({ model: 'gpt-test', messages: [...next, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }], tools: hermesTools });
    expect(toolNamesOf(harness.upstream.requests.at(-1))).toHaveLength(hermesTools.length);
  });
});
