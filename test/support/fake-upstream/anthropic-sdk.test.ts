import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readRecording } from '../recordings.js';
import { startFakeUpstream, type FakeUpstream } from './index.js';

let fake: FakeUpstream;
let client: Anthropic;

beforeAll(async () => {
  fake = await startFakeUpstream();
  client = new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0, timeout: 30_000 });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const request = { model: 'claude-test', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hello' }] };

async function collect(stream: AsyncIterable<RawMessageStreamEvent>): Promise<RawMessageStreamEvent[]> {
  const events: RawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('fake upstream, Anthropic format, driven by @anthropic-ai/sdk', () => {
  it('answers a non-streaming request with the recorded body', async () => {
    const message = await client.messages.create(request);
    const recorded = JSON.parse(readRecording('anthropic-text', 'json')) as { content: [{ text: string }] };
    expect(message.content[0]).toEqual({ type: 'text', text: recorded.content[0].text });
    expect(message.usage.output_tokens).toBe(29);
    expect(fake.requests[0]?.path).toBe('/v1/messages');
    // Older SDKs send x-api-key; the installed one sends a bearer token. Either carries the key.
    const headers = fake.requests[0]?.headers;
    expect([headers?.['x-api-key'], headers?.authorization]).toContain(headers?.['x-api-key'] ? 'test-key' : 'Bearer test-key');
    expect(fake.requests[0]?.format).toBe('anthropic-messages');
  });

  it('streams the recorded text through the SDK message accumulator', async () => {
    const message = await client.messages.stream(request).finalMessage();
    expect(message.content[0]?.type).toBe('text');
    expect(message.content[0]?.type === 'text' && message.content[0].text).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(30);
  });

  it('names every event after its type and sends no [DONE]', async () => {
    const response = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...request, stream: true }) });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('request-id')).toMatch(/^req_fake/);
    const body = await response.text();
    expect(body.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(body).toContain('event: ping\ndata: {"type":"ping"}\n\n');
    expect(body.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(body).not.toContain('[DONE]');
  });

  it('streams a tool call with no arguments as input {}', async () => {
    fake.enqueue({ kind: 'recording', name: 'anthropic-tool-no-args' });
    const message = await client.messages.stream(request).finalMessage();
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    expect(toolUse?.type === 'tool_use' && toolUse.input).toEqual({});
    expect(message.stop_reason).toBe('tool_use');
  });

  it('streams three parallel tool uses (whitespace-padded payloads)', async () => {
    fake.enqueue({ kind: 'recording', name: 'anthropic-issue-15652-false' });
    const message = await client.messages.stream(request).finalMessage();
    const toolUses = message.content.filter((block) => block.type === 'tool_use');
    expect(toolUses).toHaveLength(3);
    for (const block of toolUses) expect(typeof block.input).toBe('object');
  });

  it('returns the recorded JSON tool body and the thinking + tool body', async () => {
    fake.enqueue({ kind: 'recording', name: 'anthropic-json-tool' }, { kind: 'recording', name: 'issue-13430-thinking-tool-call' });
    const tool = await client.messages.create(request);
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content.some((block) => block.type === 'tool_use')).toBe(true);
    const thinking = await client.messages.create(request);
    expect(thinking.content[0]?.type).toBe('thinking');
  });

  it('streams the thinking recording with its signature', async () => {
    fake.enqueue({ kind: 'recording', name: 'anthropic-clear-thinking' });
    const message = await client.messages.stream(request).finalMessage();
    const thinking = message.content.find((block) => block.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(0);
  });

  it('synthesizes text and tool_use blocks, streaming and not', async () => {
    const toolCalls = [
      { name: 'read_file', arguments: { path: 'a.txt' } },
      { name: 'list_dir', arguments: { path: '.', depth: 2 } },
    ];
    fake.enqueue({ kind: 'synthetic', text: 'Reading both.', toolCalls }, { kind: 'synthetic', text: 'Reading both.', toolCalls });
    const streamed = await client.messages.stream(request).finalMessage();
    const plain = await client.messages.create(request);
    for (const message of [streamed, plain]) {
      expect(message.model).toBe('claude-test');
      expect(message.content.map((block) => block.type)).toEqual(['text', 'tool_use', 'tool_use']);
      const inputs = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.input] : []));
      expect(inputs).toEqual([{ path: 'a.txt' }, { path: '.', depth: 2 }]);
      expect(message.stop_reason).toBe('tool_use');
    }
  });

  it('rewrites the model and strips usage when asked', async () => {
    fake.enqueue({ kind: 'recording', rewriteModel: true, omitUsage: true });
    const events = await collect(await client.messages.create({ ...request, stream: true }));
    const start = events.find((event) => event.type === 'message_start');
    expect(start?.type === 'message_start' && start.message.model).toBe('claude-test');
    expect(start?.type === 'message_start' && 'usage' in start.message).toBe(false);
    expect(events.some((event) => event.type === 'message_delta' && 'usage' in event)).toBe(false);
  });

  it('surfaces a 429 rate_limit_error with retry-after', async () => {
    fake.enqueue({ kind: 'error', status: 429, retryAfter: 7 });
    const error: unknown = await client.messages.create(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    if (!(error instanceof Anthropic.RateLimitError)) return;
    expect(error.headers.get('retry-after')).toBe('7');
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('surfaces prompt too long as a 400 invalid_request_error', async () => {
    fake.enqueue({ kind: 'error', status: 400, error: 'context-length', promptTokens: 210_345, maxTokens: 200_000 });
    const error: unknown = await client.messages.create(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({
      error: { error: { type: 'invalid_request_error', message: 'prompt is too long: 210345 tokens > 200000 maximum' } },
    });
  });

  it.each([
    [500, 'api_error'],
    [529, 'overloaded_error'],
    [401, 'authentication_error'],
  ] as const)('surfaces a %i as %s', async (status, type) => {
    fake.enqueue({ kind: 'error', status });
    await expect(client.messages.create(request)).rejects.toMatchObject({ status, error: { error: { type } } });
  });

  it('replays the recorded tool_result error body as a 400', async () => {
    fake.enqueue({ kind: 'recording', name: 'anthropic-parallel-provider-client-tools-error' });
    await expect(client.messages.create(request)).rejects.toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error' } },
    });
  });
});
