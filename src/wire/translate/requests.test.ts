import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import { decodeAnthropicMessagesRequest } from '../anthropic-messages/decode.js';
import { decodeOpenAiChatRequest } from '../openai-chat/decode.js';
import { hermesRequestsDirectory, readJsonObject } from '../test-support/recordings.js';
import { anthropicRequestToOpenAi } from './anthropic-request-to-openai.js';
import { openAiRequestToAnthropic } from './openai-request-to-anthropic.js';
import {
  anthropicContentTypes,
  anthropicLegacySamplingFields,
  anthropicRequestFields,
  anthropicToolChoiceTypes,
  openAiContentPartTypes,
  openAiMessageRoles,
  openAiRequestFields,
} from './sdk-fields.js';

const context = { requestId: 'r', receivedAt: 0, hints: {} };
const hermesTurn = (number: number): JsonObject => readJsonObject(join(hermesRequestsDirectory, `turn-${number}.json`));

/** Every key and block type of an Anthropic request is one the official SDK types know. */
function expectAnthropicShape(body: JsonObject, extraFields: readonly string[] = []): void {
  for (const key of Object.keys(body)) expect([...anthropicRequestFields, ...extraFields]).toContain(key);
  const messages = body['messages'] as JsonObject[];
  for (const message of messages) {
    expect(['user', 'assistant']).toContain(message['role']);
    if (Array.isArray(message['content'])) {
      for (const block of message['content'] as JsonObject[]) expect(anthropicContentTypes).toContain(block['type']);
    }
  }
  const toolChoice = body['tool_choice'];
  if (isJsonObject(toolChoice)) expect(anthropicToolChoiceTypes).toContain(toolChoice['type']);
}

function expectOpenAiShape(body: JsonObject): void {
  for (const key of Object.keys(body)) expect(openAiRequestFields).toContain(key);
  for (const message of body['messages'] as JsonObject[]) {
    expect(openAiMessageRoles).toContain(message['role']);
    if (Array.isArray(message['content'])) {
      for (const part of message['content'] as JsonObject[]) expect(openAiContentPartTypes).toContain(part['type']);
    }
  }
}

/** What a conversation means, independent of format details: roles, text, calls with parsed args, results. */
function meaning(body: JsonObject): unknown {
  return (body['messages'] as JsonObject[]).map((message) => ({
    role: message['role'],
    content: message['content'] === null || message['content'] === '' ? undefined : message['content'],
    toolCalls: ((message['tool_calls'] as JsonObject[] | undefined) ?? []).map((call) => {
      const called = call['function'] as JsonObject;
      return { id: call['id'], name: called['name'], input: JSON.parse(String(called['arguments'])) as unknown };
    }),
    toolCallId: message['tool_call_id'],
  }));
}

describe('OpenAI → Anthropic → OpenAI on real Hermes bodies', () => {
  for (const number of [1, 2, 3, 4, 5]) {
    it(`keeps the meaning of turn-${number}`, () => {
      const original = hermesTurn(number);
      const anthropic = openAiRequestToAnthropic(original);
      expectAnthropicShape(anthropic);
      // The translated body is a valid Messages request for our own strict decoder too.
      decodeAnthropicMessagesRequest(anthropic, context);
      const back = anthropicRequestToOpenAi(anthropic);
      expectOpenAiShape(back);
      decodeOpenAiChatRequest(back, context);

      expect(meaning(back)).toEqual(meaning(original));
      expect(back['tools']).toEqual(original['tools']);
      expect(back['model']).toBe(original['model']);
      expect(back['max_tokens']).toBe(original['max_tokens'] ?? 4096);
      expect(back['stream']).toBe(original['stream']);
      // Hermes asked for usage in the stream; the OpenAI side always asks for it when streaming.
      if (original['stream'] === true) expect(back['stream_options']).toEqual({ include_usage: true });
      expect(anthropic['stream_options']).toBeUndefined();
    });
  }

  it('turns the tool loop into tool_use and a tool_result answered in the next user message', () => {
    const anthropic = openAiRequestToAnthropic(hermesTurn(4));
    const messages = anthropic['messages'] as JsonObject[];
    const assistant = messages.at(-2);
    const user = messages.at(-1);
    expect(assistant?.['content']).toEqual([{ type: 'tool_use', id: 'call_capture_5', name: 'terminal', input: { command: 'ls' } }]);
    expect(user?.['role']).toBe('user');
    expect(user?.['content']).toEqual([
      { type: 'tool_result', tool_use_id: 'call_capture_5', content: '{"output": "hello.py\\nnotes.txt", "exit_code": 0, "error": null}' },
    ]);
    expect(typeof anthropic['system']).toBe('string');
  });
});

describe('openAiRequestToAnthropic', () => {
  const base = { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] };

  it('merges consecutive tool results (and a following user message) into one user message', () => {
    const anthropic = openAiRequestToAnthropic({
      model: 'gpt',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'Running both.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'one', arguments: '{"x":1}' } },
            { id: 'b', type: 'function', function: { name: 'two', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'first' },
        { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'second' }] },
        { role: 'user', content: 'and now?' },
      ],
    });
    expect(anthropic['messages']).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running both.' },
          { type: 'tool_use', id: 'a', name: 'one', input: { x: 1 } },
          // Invalid JSON arguments do not crash the translation.
          { type: 'tool_use', id: 'b', name: 'two', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'first' },
          { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'second' }] },
          { type: 'text', text: 'and now?' },
        ],
      },
    ]);
  });

  it('converts images: data URLs to base64 sources, http URLs to url sources', () => {
    const anthropic = openAiRequestToAnthropic({
      model: 'gpt',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'compare' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
          ],
        },
      ],
    });
    expect((anthropic['messages'] as JsonObject[])[0]?.['content']).toEqual([
      { type: 'text', text: 'compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
  });

  it('hoists system and developer messages and maps the request options', () => {
    const anthropic = openAiRequestToAnthropic({
      model: 'gpt',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'Use tools.' }, ...base.messages],
      tools: [{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }],
      tool_choice: { type: 'function', function: { name: 'read' } },
      parallel_tool_calls: false,
      max_completion_tokens: 900,
      max_tokens: 100,
      stop: 'END',
      user: 'user-7',
      metadata: { trace: 'x' },
      stream: true,
      stream_options: { include_usage: true },
      n: 1,
      seed: 3,
      logprobs: false,
      temperature: 1.5,
    });
    expectAnthropicShape(anthropic);
    expect(anthropic).toEqual({
      model: 'gpt',
      max_tokens: 900,
      system: 'Be brief.\n\nUse tools.',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
      tool_choice: { type: 'tool', name: 'read', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
      stream: true,
    });
  });

  it('maps every tool_choice', () => {
    const tools = [{ type: 'function', function: { name: 'read' } }];
    const choice = (toolChoice: unknown): unknown => openAiRequestToAnthropic({ ...base, tools, tool_choice: toolChoice })['tool_choice'];
    expect(choice('auto')).toEqual({ type: 'auto' });
    expect(choice('none')).toEqual({ type: 'none' });
    expect(choice('required')).toEqual({ type: 'any' });
    expect(choice(undefined)).toBeUndefined();
    expect(openAiRequestToAnthropic({ ...base, tools, parallel_tool_calls: false })['tool_choice']).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    // No tools, no tool_choice: Anthropic rejects a choice without tools.
    expect(openAiRequestToAnthropic({ ...base, tool_choice: 'required' })['tool_choice']).toBeUndefined();
    // A function tool without `parameters` still gets the object schema Anthropic requires.
    expect(openAiRequestToAnthropic({ ...base, tools })['tools']).toEqual([{ name: 'read', input_schema: { type: 'object', properties: {} } }]);
  });

  it('takes the max_tokens default as a parameter', () => {
    expect(openAiRequestToAnthropic(base)['max_tokens']).toBe(4096);
    expect(openAiRequestToAnthropic(base, { defaultMaxTokens: 1234 })['max_tokens']).toBe(1234);
  });

  it('maps reasoning_effort to a thinking budget below max_tokens, and drops sampling settings with it', () => {
    const anthropic = openAiRequestToAnthropic({ ...base, reasoning_effort: 'medium', max_tokens: 20_000, temperature: 0.2 }, { samplingParameters: true });
    expect(anthropic['thinking']).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(anthropic['temperature']).toBeUndefined();
    expect(openAiRequestToAnthropic({ ...base, reasoning_effort: 'high', max_tokens: 5000 })['thinking']).toEqual({ type: 'enabled', budget_tokens: 4999 });
    expect(openAiRequestToAnthropic({ ...base, reasoning_effort: 'low', max_tokens: 1000 })['thinking']).toBeUndefined();
    expect(openAiRequestToAnthropic({ ...base, reasoning_effort: 'none' })['thinking']).toBeUndefined();
    // Anthropic refuses thinking with a forced tool; the forced tool wins.
    const forced = openAiRequestToAnthropic({ ...base, reasoning_effort: 'high', tools: [{ type: 'function', function: { name: 'a' } }], tool_choice: 'required' });
    expect(forced['thinking']).toBeUndefined();
  });

  it('sends sampling settings only when asked, clamping temperature to 0–1', () => {
    expect(openAiRequestToAnthropic({ ...base, temperature: 0.3, top_p: 0.9 })['temperature']).toBeUndefined();
    const sampled = openAiRequestToAnthropic({ ...base, temperature: 1.7, top_p: 0.9 }, { samplingParameters: true });
    expect(sampled).toMatchObject({ temperature: 1, top_p: 0.9 });
    expectAnthropicShape(sampled, anthropicLegacySamplingFields);
  });

  it('turns response_format json_schema into a system instruction (best effort)', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const anthropic = openAiRequestToAnthropic({ ...base, response_format: { type: 'json_schema', json_schema: { name: 'a', schema } } });
    expect(anthropic['system']).toContain(JSON.stringify(schema));
    expect(anthropic['response_format']).toBeUndefined();
  });

  it('replays signed thinking blocks and drops bare reasoning_content, which Anthropic would reject unsigned', () => {
    const messages = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning_content: 'hmm', thinking_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }] },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'b', reasoning_content: 'unsigned' },
    ];
    const converted = openAiRequestToAnthropic({ model: 'gpt', messages })['messages'] as JsonObject[];
    expect(converted[1]?.['content']).toEqual([{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'text', text: 'a' }]);
    expect(converted[3]?.['content']).toBe('b');
    const kept = openAiRequestToAnthropic({ model: 'gpt', messages }, { keepUnsignedThinking: true })['messages'] as JsonObject[];
    expect(kept[3]?.['content']).toEqual([{ type: 'thinking', thinking: 'unsigned', signature: '' }, { type: 'text', text: 'b' }]);
  });

  it('cleans tool ids Anthropic would reject, the same way in calls and results', () => {
    const anthropic = openAiRequestToAnthropic({
      model: 'gpt',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'functions.read:0', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'functions.read:0', content: 'ok' },
      ],
    });
    const messages = anthropic['messages'] as JsonObject[];
    expect((messages[1]?.['content'] as JsonObject[])[0]?.['id']).toBe('functions_read_0');
    expect((messages[2]?.['content'] as JsonObject[])[0]?.['tool_use_id']).toBe('functions_read_0');
  });
});

describe('anthropicRequestToOpenAi', () => {
  const body = {
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look closer.', signature: 'sig' },
          { type: 'text', text: 'Let me zoom.' },
          { type: 'tool_use', id: 'toolu_1', name: 'zoom', input: { factor: 2 } },
          { type: 'tool_use', id: 'toolu_2', name: 'crop', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'zoomed' }, { type: 'image', source: { type: 'url', url: 'https://x/z.png' } }] },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'cropped', is_error: false },
          { type: 'text', text: 'Well?' },
        ],
      },
    ],
    tools: [
      { name: 'zoom', description: 'Zoom in', input_schema: { type: 'object', properties: { factor: { type: 'number' } } } },
      { name: 'crop', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
    stop_sequences: ['###'],
    temperature: 0.5,
    top_k: 5,
    thinking: { type: 'enabled', budget_tokens: 4000 },
    metadata: { user_id: 'u-1' },
    stream: true,
  };

  it('maps every part of a rich conversation', () => {
    const openAi = anthropicRequestToOpenAi(body, { maxTokensField: 'max_completion_tokens' });
    expectOpenAiShape(openAi);
    expect(openAi).toEqual({
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me zoom.',
          reasoning_content: 'Look closer.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'zoom', arguments: '{"factor":2}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'crop', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'zoomed' },
        { role: 'tool', tool_call_id: 'toolu_2', content: 'cropped' },
        // The image a tool returned cannot ride in a tool message; it follows in the user message.
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/z.png' } }, { type: 'text', text: 'Well?' }] },
      ],
      max_completion_tokens: 2048,
      tools: [
        { type: 'function', function: { name: 'zoom', description: 'Zoom in', parameters: { type: 'object', properties: { factor: { type: 'number' } } } } },
        { type: 'function', function: { name: 'crop', parameters: { type: 'object' } } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      stop: ['###'],
      temperature: 0.5,
      reasoning_effort: 'medium',
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('round-trips back to Anthropic keeping messages and tools (signatures and server tools aside)', () => {
    const back = openAiRequestToAnthropic(anthropicRequestToOpenAi(body), { samplingParameters: true });
    expectAnthropicShape(back, anthropicLegacySamplingFields);
    const messages = back['messages'] as JsonObject[];
    expect(messages[1]?.['content']).toEqual([
      // The unsigned reasoning is dropped on the way back: Anthropic would reject it.
      { type: 'text', text: 'Let me zoom.' },
      { type: 'tool_use', id: 'toolu_1', name: 'zoom', input: { factor: 2 } },
      { type: 'tool_use', id: 'toolu_2', name: 'crop', input: {} },
    ]);
    expect(messages[2]?.['content']).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'zoomed' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'cropped' },
      { type: 'image', source: { type: 'url', url: 'https://x/z.png' } },
      { type: 'text', text: 'Well?' },
    ]);
    expect(back['tools']).toEqual((body.tools as JsonObject[]).slice(0, 2));
    expect(back['tool_choice']).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(back['max_tokens']).toBe(2048);
    expect(back['stop_sequences']).toEqual(['###']);
    expect(back['metadata']).toEqual({ user_id: 'u-1' });
  });

  it('maps each tool_choice and thinking setting', () => {
    const tools = [{ name: 'a', input_schema: { type: 'object' } }];
    const base = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools };
    expect(anthropicRequestToOpenAi({ ...base, tool_choice: { type: 'auto' } })['tool_choice']).toBe('auto');
    expect(anthropicRequestToOpenAi({ ...base, tool_choice: { type: 'none' } })['tool_choice']).toBe('none');
    expect(anthropicRequestToOpenAi({ ...base, tool_choice: { type: 'tool', name: 'a' } })['tool_choice']).toEqual({ type: 'function', function: { name: 'a' } });
    expect(anthropicRequestToOpenAi({ ...base, thinking: { type: 'enabled', budget_tokens: 1024 } })['reasoning_effort']).toBe('low');
    expect(anthropicRequestToOpenAi({ ...base, thinking: { type: 'enabled', budget_tokens: 30_000 } })['reasoning_effort']).toBe('high');
    expect(anthropicRequestToOpenAi({ ...base, thinking: { type: 'disabled' } })['reasoning_effort']).toBeUndefined();
    expect(anthropicRequestToOpenAi({ ...base, thinking: { type: 'enabled', budget_tokens: 4000 } }, { reasoningEffort: false })['reasoning_effort']).toBeUndefined();
    expect(anthropicRequestToOpenAi({ ...base, output_config: { effort: 'xhigh' } })['reasoning_effort']).toBe('xhigh');
    expect(anthropicRequestToOpenAi(base)['max_tokens']).toBe(10);
  });

  it('maps Anthropic structured outputs to response_format', () => {
    const schema = { type: 'object', properties: {} };
    const openAi = anthropicRequestToOpenAi({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], output_config: { format: { type: 'json_schema', schema } } });
    expect(openAi['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema } });
  });
});
