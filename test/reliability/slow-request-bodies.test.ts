import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

/**
 * Headers, then one body byte every few seconds, used to keep a connection open forever (about 20k of them
 * exhaust the file limit). A body that has not arrived within `server.body_timeout_ms` now gets 408 in the
 * client's format and the connection closes; a client may have at most `server.max_unfinished_requests_per_client`
 * requests whose body is still arriving.
 */
const bodyTimeoutMs = 800;
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => ({
    ...defaultConfig(url),
    server: { body_timeout_ms: bodyTimeoutMs, max_unfinished_requests_per_client: 3 },
  }));
});
afterAll(() => harness.close());

interface SlowRequest {
  socket: Socket;
  /** Everything the gateway sent, once it closed the connection. */
  closed: Promise<{ text: string; afterMs: number }>;
  stop(): void;
}

/** Sends the headers of a POST declaring 200 body bytes, then one byte every 250 ms (the body would be whole after 50 s). */
function slowRequest(path: string, gatewayUrl = harness.gateway.url): SlowRequest {
  const { port } = new URL(gatewayUrl);
  const socket = connect(Number(port), '127.0.0.1');
  const startedAt = Date.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`);
  const dribble = setInterval(() => {
    if (!socket.destroyed) socket.write(' ');
  }, 250);
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) =>
    socket.on('close', () => {
      clearInterval(dribble);
      resolve({ text, afterMs: Date.now() - startedAt });
    }),
  );
  return { socket, closed, stop: () => (clearInterval(dribble), socket.destroy()) };
}

/**
 * How long a test waits for the body timeout to close a connection: generous for a loaded machine, and far
 * below the 50 s after which the trickle completes the body and the connection could end without any timeout.
 */
const closeWaitMs = bodyTimeoutMs + 15_000;

function withinTimeout<T>(promise: Promise<T>, milliseconds: number): Promise<T | 'still open'> {
  return Promise.race([promise, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), milliseconds))]);
}

describe('slow request bodies', () => {
  it('a body that trickles in gets 408 in the OpenAI format and the connection closes within the timeout', async () => {
    const slow = slowRequest('/v1/chat/completions');
    const outcome = await withinTimeout(slow.closed, closeWaitMs);
    slow.stop();
    expect(outcome).not.toBe('still open');
    const { text, afterMs } = outcome as { text: string; afterMs: number };
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toMatch(/"type":"api_error"/);
    expect(text).toContain('server.body_timeout_ms');
    expect(afterMs).toBeGreaterThanOrEqual(bodyTimeoutMs - 50);
  });

  it('on an Anthropic path the 408 is in the Anthropic format', async () => {
    const slow = slowRequest('/v1/messages');
    const outcome = await withinTimeout(slow.closed, closeWaitMs);
    slow.stop();
    expect(outcome).not.toBe('still open');
    expect((outcome as { text: string }).text).toMatch(/"type":"error"/);
  });

  it('a route that never reads the body still closes a trickling connection', async () => {
    const slow = slowRequest('/no/such/route');
    const outcome = await withinTimeout(slow.closed, closeWaitMs);
    slow.stop();
    expect(outcome).not.toBe('still open');
  });

  it('a client with too many unfinished requests gets 429 for the next one; others are unaffected once they end', async () => {
    // A body timeout of a minute: the three unfinished requests stay unfinished however slow the machine is (with
    // 800 ms, a stall between them and the fourth request let them time out and the fourth through).
    const patient = await startHarness((url) => ({ ...defaultConfig(url), server: { body_timeout_ms: 60_000, max_unfinished_requests_per_client: 3 } }));
    const ask = () =>
      fetch(`${patient.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
      });
    const slow = [0, 1, 2].map(() => slowRequest('/v1/chat/completions', patient.gateway.url));
    try {
      // Asks until the gateway has counted the three (each earlier answer is a served request, which holds no slot).
      let refused = await ask();
      for (const deadline = Date.now() + 15_000; refused.status !== 429 && Date.now() < deadline; refused = await ask()) await refused.arrayBuffer();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('max_unfinished_requests_per_client');
      for (const request of slow) request.stop();
      await Promise.all(slow.map((request) => request.closed));
      // The gateway sees the three connections close a moment after this side does: ask until it has.
      let served = await ask();
      for (const deadline = Date.now() + 15_000; served.status === 429 && Date.now() < deadline; served = await ask()) await served.arrayBuffer();
      expect(served.status).toBe(200);
    } finally {
      for (const request of slow) request.stop();
      await patient.close();
    }
  });
});
