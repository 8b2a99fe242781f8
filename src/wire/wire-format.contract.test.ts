// The cases every WireFormat passes, run over every entry of the registry. A new format must add its samples
// here (the `satisfies` below makes a missing one a compile error) and then passes the same cases.
import { describe, expect, it } from 'vitest';
import type { ApiFormat } from '../core/api-format.js';
import { GatewayError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { ClientEmitter } from './client-emitter.js';
import { wireFormats } from './formats.js';

interface Samples {
  /** A request with a system prompt, one user message and no tools. */
  request: JsonObject;
  /** A complete answer of plain text, "Hello". */
  textAnswer: JsonObject;
  /** A complete answer that only calls `request_toolset` with `{"toolsets":["web"]}`. */
  toolAnswer: JsonObject;
  /** The stop reason of an answer that ended normally (what a held tool-call finish becomes on release). */
  normalStop: string;
}

const samples = {
  'openai-chat': {
    request: { model: 'm', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] },
    textAnswer: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    },
    normalStop: 'stop',
    toolAnswer: {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'request_toolset', arguments: '{"toolsets":["web"]}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
    },
  },
  'anthropic-messages': {
    request: { model: 'm', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] },
    textAnswer: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'Hello' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    },
    normalStop: 'end_turn',
    toolAnswer: {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'request_toolset', input: { toolsets: ['web'] } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  },
  'openai-responses': {
    request: { model: 'm', instructions: 'Be brief.', input: 'hi' },
    normalStop: 'completed',
    textAnswer: {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'm',
      output: [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] }],
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 },
    },
    toolAnswer: {
      id: 'resp_2',
      object: 'response',
      status: 'completed',
      model: 'm',
      output: [{ id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'request_toolset', arguments: '{"toolsets":["web"]}' }],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    },
  },
} as const satisfies Record<ApiFormat, Samples>;

const context = { requestId: 'r1', receivedAt: 0, hints: {} };
const copy = (value: JsonObject): JsonObject => structuredClone(value) as JsonObject;

function collector(): ClientEmitter & { events: JsonObject[]; ended: number } {
  const events: JsonObject[] = [];
  const sink = {
    events,
    ended: 0,
    emit(payload: JsonObject) {
      events.push(payload);
    },
    done() {
      sink.ended += 1;
    },
  };
  return sink;
}

describe.each(Object.values(wireFormats))('wire format $name', (format) => {
  const sample: Samples = samples[format.name];

  it('decodes its own request into a Turn of that format', () => {
    const turn = format.decode(copy(sample.request), context);
    expect(turn.format).toBe(format.name);
    expect(turn.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(turn.messages[1]?.text).toBe('hi');
  });

  it('refuses a body without messages with an invalid_request error', () => {
    expect(() => format.decode({ model: 'm' }, context)).toThrow(GatewayError);
  });

  it('ends the system prompt with a note, copy on write', () => {
    const body = copy(sample.request);
    const before = JSON.stringify(body);
    const turn = format.decode({ ...body, ...format.systemPromptMembers(body, 'NOTE') }, context);
    expect(JSON.stringify(body)).toBe(before);
    expect(turn.messages[0]?.text.endsWith('NOTE')).toBe(true);
  });

  it('writes a function tool it can read back, and a tool round trip it can decode', () => {
    const tool = format.functionTool({ name: 'request_toolset', description: 'load toolsets', parameters: { type: 'object', properties: {} } });
    expect(format.readTool(tool, 3)).toEqual({ name: 'request_toolset', description: 'load toolsets', index: 3 });
    const body = { ...copy(sample.request), tools: [tool] };
    format.appendToolRoundTrip(body, {
      toolName: 'request_toolset',
      calls: [{ id: 'call_9', argumentsText: '{"toolsets":["web"]}' }],
      results: ['READY'],
      text: 'loading',
      thinking: [],
    });
    const turn = format.decode(body, context);
    expect(turn.tools.map((view) => view.name)).toEqual(['request_toolset']);
    expect(turn.messages.slice(2).map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(turn.messages[2]?.toolCallNames).toEqual(['request_toolset']);
  });

  it('reads usage and text from a complete answer, and appends text to it', () => {
    const answer = copy(sample.textAnswer);
    expect(format.usageFromBody(answer)).toMatchObject({ inputTokens: 10, outputTokens: 2 });
    expect(format.responseText(answer)).toBe('Hello');
    expect(format.appendTextToBody(answer, ' - sig')).toBe(true);
    expect(format.responseText(answer)).toBe('Hello - sig');
    expect(format.appendTextToBody(copy(sample.toolAnswer), ' - sig')).toBe(false);
  });

  it('strips a gateway tool call from a complete answer and says it was the only call', () => {
    const answer = copy(sample.toolAnswer);
    const stripped = format.stripToolCalls(answer, 'request_toolset');
    expect(stripped.recoveryOnly).toBe(true);
    expect(stripped.calls).toHaveLength(1);
    expect(JSON.parse(stripped.calls[0]?.argumentsText ?? '')).toEqual({ toolsets: ['web'] });
    expect(JSON.stringify(answer)).not.toContain('request_toolset');
  });

  it('streams a complete answer whose events carry its text and usage, and appends text before a normal end', () => {
    const events = format.bodyAsStreamEvents(copy(sample.textAnswer), true);
    expect(events.map((event) => format.streamEventText(event.payload)).join('')).toBe('Hello');
    const usage = format.createUsageAccumulator();
    for (const event of events) usage.observe(event.payload);
    expect(usage.result()).toMatchObject({ inputTokens: 10, outputTokens: 2 });
    const sink = collector();
    const signed = format.appendTextToStream(sink, () => ' - sig');
    for (const event of format.bodyAsStreamEvents(copy(sample.textAnswer), true)) signed.emit(event.payload, undefined, event.eventName);
    signed.done();
    expect(sink.events.map((payload) => format.streamEventText(payload)).join('')).toBe('Hello - sig');
    expect(sink.ended).toBe(1);
  });

  it('hides a streamed gateway tool call from the client and holds the finish for a re-issue', () => {
    const sink = collector();
    const filter = format.createRecoveryFilter(sink, 'request_toolset');
    for (const event of format.bodyAsStreamEvents(copy(sample.toolAnswer), true)) filter.emit(event.payload, undefined, event.eventName);
    filter.done();
    expect(JSON.parse(filter.pendingRecovery()?.[0]?.argumentsText ?? '')).toEqual({ toolsets: ['web'] });
    expect(JSON.stringify(sink.events)).not.toContain('request_toolset');
    expect(sink.ended).toBe(0);
  });

  it('releases a held finish as a normal end when no re-issue follows', () => {
    const sink = collector();
    const filter = format.createRecoveryFilter(sink, 'request_toolset');
    for (const event of format.bodyAsStreamEvents(copy(sample.toolAnswer), true)) filter.emit(event.payload, undefined, event.eventName);
    filter.done();
    const beforeRelease = sink.events.length;
    filter.releaseHeld();
    const released = JSON.stringify(sink.events.slice(beforeRelease));
    expect(released).toContain(`"${sample.normalStop}"`);
    expect(released).not.toContain('tool_');
    expect(filter.pendingRecovery()).toBeUndefined();
    // The end frame (OpenAI `[DONE]`) follows the release; a format without one ends with its last event.
    expect(sink.ended).toBe(format.streamEndData === undefined ? 0 : 1);
  });

  it('continues the same client stream with the re-issued answer', () => {
    const sink = collector();
    const filter = format.createRecoveryFilter(sink, 'request_toolset');
    for (const event of format.bodyAsStreamEvents(copy(sample.toolAnswer), true)) filter.emit(event.payload, undefined, event.eventName);
    filter.done();
    const firstResponseEvents = sink.events.length;
    filter.beginContinuation();
    for (const event of format.bodyAsStreamEvents(copy(sample.textAnswer), true)) filter.emit(event.payload, undefined, event.eventName);
    filter.done();
    expect(filter.pendingRecovery()).toBeUndefined();
    expect(filter.interceptedCalls()).toEqual([]);
    expect(filter.responseText()).toBe('Hello');
    expect(sink.events.map((payload) => format.streamEventText(payload)).join('')).toBe('Hello');
    expect(JSON.stringify(sink.events.slice(firstResponseEvents))).toContain(`"${sample.normalStop}"`);
    expect(sink.ended).toBe(1);
  });

  it('renders an error in its own shape, carrying the message', () => {
    const body = format.errorBody(new GatewayError('rate_limited', 'slow down'));
    expect(JSON.stringify(body)).toContain('slow down');
    expect(JSON.stringify(body)).toContain('rate_limit_error');
  });
});
