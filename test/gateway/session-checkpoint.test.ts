import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

/** Starts a streamed request and returns once its first bytes arrived, with a function that reads the rest. */
async function startStream(body: object, sessionId: string): Promise<{ rest: () => Promise<string> }> {
  const response = await fetch(`${harness.gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  return {
    rest: async () => {
      let text = new TextDecoder().decode(first.value);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
      return text;
    },
  };
}

/** The session as the store has it: what another instance would read, not this instance's record in flight. */
const stored = (sessionId: string) => harness.gateway.gateway.sessions.store.get(sessionId);

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 500): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the session record reaches the store while the answer is still streaming', () => {
  it('model affinity is stored when the answer starts, not when it ends', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', chunkCount: 6, stream: true, stallAfterChunks: 2, stallMs: 1_000 });
    const stream = await startStream({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] }, 'checkpoint-affinity');
    // The upstream is stalled mid-answer for a second: the request is far from released.
    const during = await eventually(() => stored('checkpoint-affinity'), (record) => record?.affinity !== undefined);
    expect(during?.affinity?.deployment).toBe('local/gpt-test');
    expect(await stream.rest()).toContain('[DONE]');
  });
});
