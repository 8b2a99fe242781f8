import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

/**
 * An upstream may answer with a body of any size; the gateway used to read every non-streamed body whole (eight
 * concurrent 50 MB answers took it to 2.35 GB). A buffered answer is now capped
 * (`server.upstream_response_limit_bytes`) and refused in the client's format, the read stopped as soon as the
 * cap is passed; a stream is relayed event by event, and one event larger than the cap is refused the same way.
 * Peak RSS under 8 × 50 MB is measured in bench/soak.ts, not asserted here.
 */
const limitBytes = 256 * 1024;
const oversizedText = 'x'.repeat(4 * 1024 * 1024);
// Larger than the loopback socket buffers (kernel read plus write buffers here reach ~36 MiB): a 4 MiB answer can
// land whole in the gateway's socket before its read is stopped, and then its connection may stay open for
// reuse although the gateway stopped reading early, so "no socket left open" would fail at random.
const unbufferableText = 'x'.repeat(40 * 1024 * 1024);
let harness: Harness;

beforeAll(async () => {
  // The fake builds the eight 40 MB answers one after another in this process (about a second each on a loaded
  // machine), so the last one's first byte can come after the harness's 3 s first-byte timeout: a 504 that says
  // nothing about sizes. The timeouts here are generous; this file is about the size cap, not about timing.
  harness = await startHarness((url) => {
    const base = defaultConfig(url);
    return { ...base, fallbacks: {}, server: { upstream_response_limit_bytes: limitBytes }, timeouts: { ...base.timeouts, first_byte_ms: 60_000, idle_ms: 30_000 } };
  });
});
afterAll(() => harness.close());

describe('oversized upstream responses', () => {
  // The fake builds each 40 MB answer (about a second of JSON.stringify apiece on a loaded machine) in the same
  // process as the gateway: a slow test, not one about speed.
  it('eight concurrent oversized JSON answers are refused in the OpenAI format, each read stopped early', { timeout: 120_000 }, async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: unbufferableText, stream: false } });
    const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(OpenAI.APIError);
      const error = outcome as InstanceType<typeof OpenAI.APIError>;
      expect(error.status).toBe(502);
      expect(error.message).toMatch(/larger than 262144 bytes/);
    }
    // The gateway hung up on each answer instead of reading it to the end: each connection was reset with the
    // answer unread. Answers read whole would leave their connections open for reuse and, once the keep-alive
    // expires, close them cleanly; neither is a reset, so however long this waits it cannot pass by itself.
    await expect.poll(() => harness.upstream.connectionsResetByClient(), { timeout: 60_000, interval: 50 }).toBe(8);
    harness.upstream.reset();
  });

  it('an oversized answer to an Anthropic client is refused in the Anthropic format', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: oversizedText, stream: false } });
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
    const failure = await client.messages
      .create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    expect(JSON.stringify((failure as InstanceType<typeof Anthropic.APIError>).error)).toContain('api_error');
    harness.upstream.reset();
  });

  it('a streamed answer under the cap per event passes however long it is in total', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: oversizedText, chunkCount: 64, stream: true } });
    const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let received = 0;
    for await (const chunk of stream) received += chunk.choices[0]?.delta.content?.length ?? 0;
    expect(received).toBe(oversizedText.length);
    harness.upstream.reset();
  });

  it('one streamed event larger than the cap is refused before it is held whole', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: oversizedText, chunkCount: 1, stream: true } });
    const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
    const failure = await (async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      for await (const chunk of stream) void chunk;
    })().catch((error: unknown) => error);
    expect(String(failure)).toMatch(/larger than 262144 bytes/);
    harness.upstream.reset();
  });
});
