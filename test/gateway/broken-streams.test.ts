import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  harness = await startHarness();
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

/** Raw SSE text of a gateway stream, to see exactly what the client got. */
async function rawStream(path: string, body: object): Promise<string> {
  const response = await fetch(`${harness.gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.text();
}

const openAiBody = { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'tell me' }] };
const anthropicBody = { model: 'claude-test', stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'tell me' }] };

describe('a stream that breaks after it started', () => {
  it('cut at chunk 40 of 60 ends with an error event, never [DONE], and the ledger says so', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 60, stream: true, cutAfterChunks: 40 });
    const before = harness.observer.records.length;
    const text = await rawStream('/v1/chat/completions', openAiBody);
    expect(text).not.toContain('[DONE]');
    expect(text).toContain('"error"');
    const deltas = text.split('\n\n').filter((event) => event.includes('"delta"'));
    expect(deltas.length).toBeGreaterThanOrEqual(30);
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(record?.errorClass).toBe('stream_interrupted');
    // No failover after the first byte: one attempt only.
    expect(record?.attempts).toHaveLength(1);
  });

  it('the OpenAI SDK surfaces the cut as an error', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 60, stream: true, cutAfterChunks: 40 });
    const consume = async () => {
      const stream = await openai.chat.completions.create(openAiBody as OpenAI.ChatCompletionCreateParamsStreaming);
      for await (const chunk of stream) void chunk;
    };
    await expect(consume()).rejects.toThrow();
  });

  it('a stall mid-stream hits the idle timeout and ends with an error event', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 20, stream: true, stallAfterChunks: 5 });
    const text = await rawStream('/v1/chat/completions', openAiBody);
    expect(text).toContain('idle timeout');
    expect(text).not.toContain('[DONE]');
  });

  it('a malformed chunk mid-stream ends with an error event', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 20, stream: true, malformedAfterChunks: 5 });
    const text = await rawStream('/v1/chat/completions', openAiBody);
    expect(text).toContain('malformed');
    expect(text).not.toContain('[DONE]');
  });

  it('a missing [DONE] after a finish reason is completed cleanly', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 10, stream: true, omitTerminator: true });
    const text = await rawStream('/v1/chat/completions', openAiBody);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(text).not.toContain('"error"');
  });

  it('Anthropic: a cut stream ends with an error event, not message_stop', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 30, stream: true, cutAfterChunks: 10 });
    const text = await rawStream('/v1/messages', anthropicBody);
    expect(text).toContain('event: error');
    expect(text).not.toContain('message_stop');
    await expect(
      (async () => {
        harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 30, stream: true, cutAfterChunks: 10 });
        await anthropic.messages.stream(anthropicBody as Anthropic.MessageCreateParamsStreaming).finalMessage();
      })(),
    ).rejects.toThrow();
  });

  it('Anthropic: a missing message_stop after the stop reason is completed', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 5, stream: true, omitTerminator: true });
    const final = await anthropic.messages.stream(anthropicBody as Anthropic.MessageCreateParamsStreaming).finalMessage();
    expect(final.stop_reason).toBe('end_turn');
  });

  it('a first token after a long delay within the idle timeout still arrives', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 5, stream: true, delayBeforeFirstChunkMs: 1_000 });
    const text = await rawStream('/v1/chat/completions', openAiBody);
    expect(text).toContain('[DONE]');
  });
});

describe('cancellation', () => {
  it('a client that disconnects mid-stream cancels its upstream request', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 200, stream: true, interChunkDelayMs: 20 });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(openAiBody as OpenAI.ChatCompletionCreateParamsStreaming, { signal: controller.signal });
    let received = 0;
    // The SDK either throws an abort error or ends the iteration; both are a client going away.
    await (async () => {
      for await (const chunk of stream) {
        void chunk;
        received += 1;
        if (received === 5) controller.abort();
      }
    })().catch(() => undefined);
    expect(received).toBeLessThan(200);
    // Waits for the cancellation, not a speed: an upstream stream left running ends by itself after 4 s and is then
    // never counted as aborted, so a longer wait cannot make this pass.
    const deadline = Date.now() + 15_000;
    while (harness.upstream.abortedRequests() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(harness.upstream.abortedRequests()).toBe(1);
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.errorClass).toBe('client_closed');
  });
});

describe('a provider that ignores stream: true', () => {
  it('answers one JSON body; the client still gets a well-formed stream in its format', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'openai-text', stream: false });
    const stream = await openai.chat.completions.create({ ...(openAiBody as OpenAI.ChatCompletionCreateParamsStreaming), stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(20);
    expect(usage?.total_tokens).toBeGreaterThan(0);
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-text', stream: false });
    const final = await anthropic.messages.stream(anthropicBody as Anthropic.MessageCreateParamsStreaming).finalMessage();
    expect(final.content[0]?.type).toBe('text');
    expect(final.stop_reason).toBe('end_turn');
  });
});
