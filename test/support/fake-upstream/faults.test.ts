import Anthropic from '@anthropic-ai/sdk';
import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './index.js';

let fake: FakeUpstream;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  fake = await startFakeUpstream();
  openai = new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, timeout: 30_000 });
  // logLevel off: the SDK logs malformed chunks to the console before throwing.
  anthropic = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, timeout: 30_000, logLevel: 'off' });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const messages = [{ role: 'user' as const, content: 'Hello' }];
const anthropicRequest = { model: 'claude-test', max_tokens: 64, messages };

/** Waits for an event the fake records; the bound only ends a test that would otherwise hang (not a speed). */
async function eventually(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads an OpenAI stream, keeping what arrived before any error. */
async function readOpenAiStream(
  stream: AsyncIterable<ChatCompletionChunk>,
): Promise<{ chunks: ChatCompletionChunk[]; times: number[]; error: unknown }> {
  const chunks: ChatCompletionChunk[] = [];
  const times: number[] = [];
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      times.push(Date.now());
    }
    return { chunks, times, error: undefined };
  } catch (error) {
    return { chunks, times, error };
  }
}

function contentOf(chunks: ChatCompletionChunk[]): string[] {
  return chunks.flatMap((chunk) => {
    const content = chunk.choices[0]?.delta.content;
    return content ? [content] : [];
  });
}

/** A plain HTTP POST with no keep-alive, reporting each network read separately. */
function rawPost(path: string, body: unknown): Promise<{ status: number; reads: string[]; headersAt: number; firstReadAt: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${fake.url}${path}`, { method: 'POST', agent: false, headers: { connection: 'close' } }, (response) => {
      const headersAt = Date.now() - started;
      let firstReadAt = -1;
      const reads: string[] = [];
      response.setEncoding('utf8');
      response.on('data', (part: string) => {
        if (firstReadAt < 0) firstReadAt = Date.now() - started;
        reads.push(part);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reads, headersAt, firstReadAt }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

describe('fake upstream faults', () => {
  it('resets the connection before any response', async () => {
    fake.enqueue({ kind: 'reset' }, { kind: 'reset' });
    const openaiError: unknown = await openai.chat.completions.create({ model: 'm', messages }).catch((caught: unknown) => caught);
    expect(openaiError).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(openaiError).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await expect(anthropic.messages.create(anthropicRequest)).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
    expect(fake.abortedRequests()).toBe(0);
  });

  it('hangs until the client times out, and counts the abandoned request', async () => {
    fake.enqueue({ kind: 'hang' });
    const started = Date.now();
    await expect(openai.chat.completions.create({ model: 'm', messages }, { timeout: 300 })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionTimeoutError,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    await eventually(() => fake.abortedRequests() === 1);
  });

  it('delays the headers, then answers normally', async () => {
    fake.enqueue({ kind: 'recording', delayBeforeHeadersMs: 200 });
    const started = Date.now();
    const completion = await openai.chat.completions.create({ model: 'm', messages });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(completion.choices[0]?.message.content).toBeTruthy();
  });

  it('sends headers at once and delays the first chunk', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 3, delayBeforeFirstChunkMs: 250 });
    const result = await rawPost('/v1/chat/completions', { model: 'm', stream: true });
    expect(result.firstReadAt - result.headersAt).toBeGreaterThanOrEqual(200);
    expect(result.reads.join('').endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('writes each event as its own network read', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 10, interChunkDelayMs: 5 });
    const result = await rawPost('/v1/chat/completions', { model: 'm', stream: true });
    const events = result.reads.join('').split('\n\n').filter((event) => event !== '');
    // role chunk, 10 deltas, finish chunk, usage chunk, [DONE]
    expect(events).toHaveLength(14);
    expect(result.reads.length).toBeGreaterThanOrEqual(12);
  });

  it('synthesizes a long stream of 60 text deltas', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 60 });
    const { chunks, error } = await readOpenAiStream(await openai.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(error).toBeUndefined();
    const deltas = contentOf(chunks);
    expect(deltas).toHaveLength(60);
    expect(deltas[39]).toBe('w40 ');
  });

  it('cuts a long stream after 40 of 60 deltas', async () => {
    // Chunk 1 is the role chunk, so cutting after 41 chunks leaves exactly 40 text deltas.
    fake.enqueue({ kind: 'synthetic', chunkCount: 60, cutAfterChunks: 41 });
    const { chunks, error } = await readOpenAiStream(await openai.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(error).toBeDefined();
    expect(contentOf(chunks)).toHaveLength(40);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason)).toBe(false);
    expect(fake.abortedRequests()).toBe(0);
  });

  it('cuts an Anthropic stream and the SDK reports an error', async () => {
    fake.enqueue({ kind: 'recording', cutAfterChunks: 4 });
    const events: string[] = [];
    const failure: unknown = await (async () => {
      for await (const event of await anthropic.messages.create({ ...anthropicRequest, stream: true })) events.push(event.type);
    })().catch((caught: unknown) => caught ?? 'rejected');
    expect(failure).toBeDefined();
    // Four chunks went out; the SDK does not yield the ping among them.
    expect(events).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
  });

  it('stalls for a while after N chunks, then finishes', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 6, stallAfterChunks: 3, stallMs: 1_000 });
    const { chunks, times, error } = await readOpenAiStream(await openai.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(error).toBeUndefined();
    expect(contentOf(chunks)).toHaveLength(6);
    // The gap the client sees is the stall less however late it read chunk 3 (a 300 ms stall and a 280 ms bound
    // failed under load): half the stall still places it after chunk 3, not before the first or after the last.
    expect((times[3] ?? 0) - (times[2] ?? 0)).toBeGreaterThanOrEqual(500);
  });

  it('stalls forever; the client gives up and the fake sees it', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 6, stallAfterChunks: 3 });
    const controller = new AbortController();
    const started = Date.now();
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true }, { signal: controller.signal });
    // Gives up 300 ms after the third chunk, not 300 ms after the start: a loaded machine may take that long to
    // read the first three.
    const counted = (async function* () {
      let count = 0;
      for await (const chunk of stream) {
        count += 1;
        if (count === 3) setTimeout(() => controller.abort(), 300);
        yield chunk;
      }
    })();
    const { chunks, error } = await readOpenAiStream(counted);
    // The SDK ends the iteration quietly when its own signal aborts it.
    expect(error).toBeUndefined();
    expect(chunks).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    await eventually(() => fake.abortedRequests() === 1);
  });

  it('sends a malformed data line after N chunks (OpenAI)', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 5, malformedAfterChunks: 2 });
    const { chunks, error } = await readOpenAiStream(await openai.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(chunks).toHaveLength(2);
    expect(String(error)).toMatch(/JSON|Unterminated|Unexpected/i);
  });

  it('sends a malformed data line after N chunks (Anthropic)', async () => {
    fake.enqueue({ kind: 'recording', malformedAfterChunks: 3 });
    const events: string[] = [];
    const failure: unknown = await (async () => {
      for await (const event of await anthropic.messages.create({ ...anthropicRequest, stream: true })) events.push(event.type);
    })().catch((caught: unknown) => caught);
    // Chunks 1-3 are message_start, content_block_start and a ping, which the SDK does not yield.
    expect(events).toEqual(['message_start', 'content_block_start']);
    expect(String(failure)).toMatch(/JSON|Unterminated|Unexpected/i);
  });

  it('sends a mid-stream error event (Anthropic overloaded_error)', async () => {
    fake.enqueue({ kind: 'recording', errorEventAfterChunks: 4 });
    const events: string[] = [];
    const failure: unknown = await (async () => {
      for await (const event of await anthropic.messages.create({ ...anthropicRequest, stream: true })) events.push(event.type);
    })().catch((caught: unknown) => caught);
    expect(events).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure).toMatchObject({ error: { type: 'error', error: { type: 'overloaded_error' } } });
  });

  it('sends a mid-stream error payload (OpenAI)', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 5, errorEventAfterChunks: 3, errorEventKind: 'server' });
    const { chunks, error } = await readOpenAiStream(await openai.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(chunks).toHaveLength(3);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ type: 'server_error' });
  });

  it('leaves out [DONE] and message_stop when asked', async () => {
    fake.enqueue({ kind: 'recording', name: 'groq-tool-call', omitTerminator: true }, { kind: 'recording', omitTerminator: true });
    const openaiBody = (await rawPost('/v1/chat/completions', { model: 'm', stream: true })).reads.join('');
    expect(openaiBody).not.toContain('[DONE]');
    expect(openaiBody.split('\n\n').filter((event) => event !== '')).toHaveLength(3);
    const anthropicBody = (await rawPost('/v1/messages', { model: 'm', stream: true })).reads.join('');
    expect(anthropicBody).not.toContain('message_stop');
    expect(anthropicBody.trimEnd().split('\n\n').at(-1)?.startsWith('event: message_delta')).toBe(true);
  });

  it('observes a client that cancels mid-stream', async () => {
    fake.enqueue({ kind: 'synthetic', chunkCount: 60, interChunkDelayMs: 20 });
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true });
    let received = 0;
    for await (const chunk of stream) {
      received += chunk.choices.length;
      if (received === 3) break;
    }
    await eventually(() => fake.abortedRequests() === 1);
    expect(fake.requests).toHaveLength(1);
    expect(fake.inFlightRequests()).toBe(0);
  });

  it('consumes enqueued behaviours before the script, so SDK retries reach the default', async () => {
    const retrying = new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 2, timeout: 30_000 });
    fake.enqueue({ kind: 'error', status: 503, retryAfterMs: 20 }, { kind: 'error', status: 429, retryAfterMs: 20 });
    const completion = await retrying.chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(fake.requestCount('/v1/chat/completions')).toBe(3);
  });

  it('counts a connection the client resets after reading part of a body, not one read to the end', async () => {
    fake.setScript({ respond: { kind: 'synthetic', text: 'x'.repeat(8 * 1024 * 1024), stream: false } });
    // Read to the end on a connection that closes: a clean close, not a reset.
    const whole = await rawPost('/v1/chat/completions', { model: 'm', messages });
    expect(whole.reads.join('').length).toBeGreaterThan(8 * 1024 * 1024);
    await eventually(() => fake.openSockets() === 0);
    expect(fake.connectionsResetByClient()).toBe(0);
    // Hang up after the first read, with most of the body unread.
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(`${fake.url}/v1/chat/completions`, { method: 'POST', agent: false }, (response) => {
        response.once('data', () => {
          outgoing.destroy();
          resolve();
        });
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      outgoing.end(JSON.stringify({ model: 'm', messages }));
    });
    await eventually(() => fake.connectionsResetByClient() === 1);
    expect(fake.abortedRequests()).toBeLessThanOrEqual(1);
  });

  it('counts open sockets and closes while a request hangs', async () => {
    const other = await startFakeUpstream();
    other.enqueue({ kind: 'hang' });
    const pending = fetch(`${other.url}/v1/chat/completions`, { method: 'POST', body: '{}' }).catch((caught: unknown) => caught);
    await eventually(() => other.requests.length === 1);
    expect(other.openSockets()).toBe(1);
    expect(other.inFlightRequests()).toBe(1);
    // close() resolving at all is the point: the request hangs until its client goes, and this client never does.
    await other.close();
    expect(other.openSockets()).toBe(0);
    expect(await pending).toBeInstanceOf(Error);
    expect(other.abortedRequests()).toBe(0);
  });
});
