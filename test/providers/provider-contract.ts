import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiFormat } from '../../src/core/api-format.js';
import { GatewayError } from '../../src/core/errors.js';
import type { JsonObject } from '../../src/core/json.js';
import type { Provider, ProviderCall, ProviderResponse, SseEvent } from '../../src/providers/provider.js';
import { type ErrorBehaviour, type FakeUpstream, startFakeUpstream } from '../support/fake-upstream/index.js';
import { hasRecordingFile, readChunkLines, readRecording, splitRawSse } from '../support/recordings.js';
import { answerReaders, type DecodedAnswer } from './decode-answer.js';
import { recordedBodies, recordedErrors, recordedStreams, type RecordedAnswer, type RecordedFormat } from './recorded-answers.js';

/** One adapter under the contract: how to build it against an upstream, and what it must send there. */
export interface ContractSubject {
  /** Shown in the test names, e.g. `anthropic adapter` or `kind deepseek`. */
  name: string;
  /** The format the adapter speaks: which recordings it is fed. */
  format: RecordedFormat;
  create(upstreamUrl: string): Provider;
  /** The path the adapter must post chat requests to, e.g. `/v1/chat/completions`. */
  path: string;
  /** The header that must carry the API key, and its value for `apiKey`. */
  keyHeader(apiKey: string): [name: string, value: string];
  /**
   * `all` (an adapter): every recording. `one of each` (a provider kind, which is configuration of an adapter
   * that runs `all`): the first stream, body and error recording, enough to catch a kind wired wrongly.
   */
  recordings: 'all' | 'one of each';
}

const apiKey = 'sk-contract-test-0123456789abcdef';

function callFor(format: ApiFormat, stream: boolean, signal: AbortSignal): ProviderCall {
  const model = 'contract-model';
  const messages = [{ role: 'user', content: 'What is the weather in San Francisco?' }];
  const body: JsonObject =
    format === 'anthropic-messages' ? { model, max_tokens: 256, messages, stream } : { model, messages, stream };
  return {
    model,
    body,
    stream,
    apiKey,
    signal,
    timeouts: { connectMs: 5_000, firstByteMs: 10_000, idleMs: 10_000 },
    forwardHeaders: {},
  };
}

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const collected: SseEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** The events the recording's bytes hold, as an SSE parser must see them (names, and data byte for byte). */
function recordedEvents(answer: RecordedAnswer, format: RecordedFormat): SseEvent[] {
  if (hasRecordingFile(answer.recording, 'sse')) {
    // An event is dispatched at its blank line; one the body ends before (this file's final `data: [DONE]\n`)
    // is dropped, as the SSE specification says.
    return splitRawSse(readRecording(answer.recording, 'sse'))
      .filter((raw) => raw.endsWith('\n\n'))
      .map((raw) => ({ data: raw.replace(/^data: /, '').replace(/\n+$/, '') }));
  }
  const lines = readChunkLines(answer.recording);
  const eventsOf: Record<RecordedFormat, () => SseEvent[]> = {
    'openai-chat': () => [...lines.map((data) => ({ data })), { data: '[DONE]' }],
    'anthropic-messages': () => lines.map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data })),
  };
  return eventsOf[format]();
}

function payloadsOf(events: SseEvent[]): JsonObject[] {
  return events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data) as JsonObject);
}

function expectAnswer(decoded: DecodedAnswer, expected: RecordedAnswer): void {
  if (typeof expected.text === 'string') expect(decoded.text).toBe(expected.text);
  else {
    expect(decoded.text.startsWith(expected.text.startsWith)).toBe(true);
    expect(decoded.text.length).toBe(expected.text.length);
  }
  if (expected.thinking) {
    expect(decoded.thinking.startsWith(expected.thinking.startsWith)).toBe(true);
    expect(decoded.thinking.length).toBe(expected.thinking.length);
  }
  expect(decoded.toolCalls).toEqual(expected.toolCalls);
  expect(decoded.stopReason).toBe(expected.stopReason);
  expect(decoded.usage).toEqual(expected.usage);
}

async function sendExpectingError(provider: Provider, call: ProviderCall): Promise<GatewayError> {
  try {
    const response = await provider.send(call);
    if (response.kind === 'stream') await collect(response.events);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('the provider answered instead of throwing');
}

/**
 * The provider contract: what every adapter owes the attempt loop, checked against a fake upstream on loopback
 * that replays the recorded provider responses byte for byte. Streams come back as exactly the recorded events
 * (names and data) and decode to the recorded answer, usage included; JSON bodies likewise; every upstream
 * failure comes back as a `GatewayError` whose class tells the attempt loop what to do, with no key in it.
 */
export function describeProviderContract(subject: ContractSubject): void {
  const chosen = <T>(list: T[]): T[] => (subject.recordings === 'all' ? list : list.slice(0, 1));
  describe(`provider contract: ${subject.name}`, () => {
    let upstream: FakeUpstream;
    let provider: Provider;
    const reader = answerReaders[subject.format];

    beforeAll(async () => {
      upstream = await startFakeUpstream();
      provider = subject.create(upstream.url);
    });
    afterAll(async () => {
      await provider.close();
      await upstream.close();
    });
    beforeEach(() => upstream.reset());

    it('posts the call body to its path, with the key in its header', async () => {
      upstream.enqueue({ kind: 'recording', stream: false });
      const call = callFor(subject.format, false, new AbortController().signal);
      await provider.send(call);
      const received = upstream.requests[0];
      expect(received?.method).toBe('POST');
      expect(received?.path).toBe(subject.path);
      expect(received?.json).toEqual(call.body);
      const [header, value] = subject.keyHeader(apiKey);
      expect(received?.headers[header]).toBe(value);
    });

    describe.each(chosen(recordedStreams[subject.format]).map((answer) => [answer.recording, answer] as const))('stream %s', (name, answer) => {
      it('yields the recorded events, in order, byte for byte', async () => {
        upstream.enqueue({ kind: 'recording', name, stream: true });
        const response = await provider.send(callFor(subject.format, true, new AbortController().signal));
        expect(response.kind).toBe('stream');
        const events = await collect((response as Extract<ProviderResponse, { kind: 'stream' }>).events);
        expect(events).toEqual(recordedEvents(answer, subject.format));
        expect(payloadsOf(events)).toHaveLength(answer.events ?? -1);
      });

      it('decodes to the recorded text, tool calls, stop reason and usage', async () => {
        upstream.enqueue({ kind: 'recording', name, stream: true });
        const response = await provider.send(callFor(subject.format, true, new AbortController().signal));
        const events = await collect((response as Extract<ProviderResponse, { kind: 'stream' }>).events);
        expectAnswer(reader.fromStream(payloadsOf(events)), answer);
      });
    });

    describe.each(chosen(recordedBodies[subject.format]).map((answer) => [answer.recording, answer] as const))('JSON body %s', (name, answer) => {
      it('returns the recorded body, which decodes to the recorded answer', async () => {
        upstream.enqueue({ kind: 'recording', name, stream: false });
        const response = await provider.send(callFor(subject.format, false, new AbortController().signal));
        expect(response.kind).toBe('json');
        expect(response.status).toBe(200);
        const body = (response as Extract<ProviderResponse, { kind: 'json' }>).body;
        expect(body).toEqual(JSON.parse(readRecording(name, 'json')));
        expectAnswer(reader.fromBody(body), answer);
      });
    });

    it('returns a JSON answer to a streaming call as JSON (the loop re-emits it as a stream)', async () => {
      upstream.enqueue({ kind: 'recording', name: recordedBodies[subject.format][0]?.recording, stream: false });
      const response = await provider.send(callFor(subject.format, true, new AbortController().signal));
      expect(response.kind).toBe('json');
    });

    describe.each(chosen(recordedErrors[subject.format]).map((error) => [error.recording, error] as const))('recorded error %s', (name, recorded) => {
      it('is an upstream bad request carrying the provider body back, status 400', async () => {
        upstream.enqueue({ kind: 'recording', name, stream: false });
        const error = await sendExpectingError(provider, callFor(subject.format, false, new AbortController().signal));
        expect(error.errorClass).toBe('upstream_bad_request');
        expect(error.status).toBe(400);
        expect(error.upstreamStatus).toBe(400);
        expect(error.upstreamFormat).toBe(subject.format);
        expect(error.upstreamBody).toEqual(JSON.parse(readRecording(name, 'json')));
        expect(error.message).toContain(recorded.message);
      });
    });

    const statusCases: [string, ErrorBehaviour, Partial<Pick<GatewayError, 'errorClass' | 'status' | 'upstreamStatus' | 'retryAfterMs'>>][] = [
      ['429 with Retry-After', { kind: 'error', status: 429, retryAfter: 2 }, { errorClass: 'rate_limited', status: 429, upstreamStatus: 429, retryAfterMs: 2_000 }],
      ['429 with retry-after-ms', { kind: 'error', status: 429, retryAfterMs: 750 }, { errorClass: 'rate_limited', retryAfterMs: 750 }],
      ['401', { kind: 'error', status: 401 }, { errorClass: 'upstream_auth', status: 502, upstreamStatus: 401 }],
      ['403', { kind: 'error', status: 403 }, { errorClass: 'upstream_auth', upstreamStatus: 403 }],
      ['500', { kind: 'error', status: 500 }, { errorClass: 'upstream_server_error', status: 502, upstreamStatus: 500 }],
      ['503', { kind: 'error', status: 503 }, { errorClass: 'upstream_server_error', status: 502, upstreamStatus: 503 }],
      ['529 overloaded', { kind: 'error', status: 529 }, { errorClass: 'upstream_server_error', status: 502, upstreamStatus: 529 }],
      ['400 context length', { kind: 'error', status: 400, error: 'context-length' }, { errorClass: 'context_length', status: 400 }],
      ['400 content filter', { kind: 'error', status: 400, error: 'content-filter' }, { errorClass: 'content_filter', status: 400 }],
      ['404 model not found', { kind: 'error', status: 404 }, { errorClass: 'upstream_bad_request', status: 404, upstreamStatus: 404 }],
    ];
    it.each(chosen(statusCases))('maps an upstream %s to its error class', async (_label, behaviour, expected) => {
      upstream.enqueue(behaviour);
      const error = await sendExpectingError(provider, callFor(subject.format, true, new AbortController().signal));
      expect(error).toMatchObject(expected);
    });

    it('keeps the key out of an error that echoes it', async () => {
      upstream.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${apiKey}.` });
      const error = await sendExpectingError(provider, callFor(subject.format, false, new AbortController().signal));
      expect(error.errorClass).toBe('upstream_auth');
      expect(error.message).not.toContain(apiKey);
      expect(JSON.stringify(error.upstreamBody ?? null)).not.toContain(apiKey);
    });

    it('maps a reset before the response to a connection error', async () => {
      upstream.enqueue({ kind: 'reset' });
      const error = await sendExpectingError(provider, callFor(subject.format, true, new AbortController().signal));
      expect(error.errorClass).toBe('connection');
    });

    it('maps a stream cut mid-body to an error thrown by the event iterator, after the events before the cut', async () => {
      upstream.enqueue({ kind: 'recording', stream: true, cutAfterChunks: 2 });
      const response = await provider.send(callFor(subject.format, true, new AbortController().signal));
      const seen: SseEvent[] = [];
      let caught: unknown;
      try {
        for await (const event of (response as Extract<ProviderResponse, { kind: 'stream' }>).events) seen.push(event);
      } catch (error) {
        caught = error;
      }
      expect(seen).toHaveLength(2);
      expect(caught).toBeInstanceOf(GatewayError);
      expect((caught as GatewayError).errorClass).toBe('connection');
    });

    it('maps a silent upstream to a first-byte timeout', async () => {
      upstream.enqueue({ kind: 'hang' });
      const call = { ...callFor(subject.format, true, new AbortController().signal), timeouts: { connectMs: 5_000, firstByteMs: 200, idleMs: 200 } };
      const error = await sendExpectingError(provider, call);
      expect(error.errorClass).toBe('timeout');
    });

    it('maps a call the client abandoned to client_closed', async () => {
      upstream.enqueue({ kind: 'hang' });
      const controller = new AbortController();
      const pending = sendExpectingError(provider, callFor(subject.format, true, controller.signal));
      while (upstream.inFlightRequests() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      expect((await pending).errorClass).toBe('client_closed');
    });

    it('lists the upstream models for `doctor`', async () => {
      upstream.setScript({ models: ['model-a', 'model-b'] });
      const listed = await provider.check(apiKey, new AbortController().signal);
      expect(listed).toEqual(['model-a', 'model-b']);
      const [header, value] = subject.keyHeader(apiKey);
      expect(upstream.requests.at(-1)?.headers[header]).toBe(value);
    });
  });
}

