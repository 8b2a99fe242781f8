import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { decodeAnthropicMessagesRequest } from './anthropic-messages/decode.js';
import { decodeOpenAiChatRequest } from './openai-chat/decode.js';
import { hermesRequestsDirectory, readJsonObject } from './test-support/recordings.js';
import { openAiRequestToAnthropic } from './translate/openai-request-to-anthropic.js';

const context = { requestId: 'request-1', receivedAt: 1_700_000_000_000, hints: {} };
const hermesTurn = (number: number): JsonObject => readJsonObject(join(hermesRequestsDirectory, `turn-${number}.json`));

function expectInvalid(decode: () => unknown, fieldMention: string): void {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).errorClass).toBe('invalid_request');
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain(fieldMention);
    return;
  }
  throw new Error('expected the decoder to reject the body');
}

describe('decodeOpenAiChatRequest on real Hermes bodies', () => {
  it('decodes a first turn: system + user, 17 tools, streaming', () => {
    const body = hermesTurn(1);
    const turn = decodeOpenAiChatRequest(body, context);
    expect(turn.format).toBe('openai-chat');
    expect(turn.body).toBe(body);
    expect(turn.requestedModel).toBe('capture-model');
    expect(turn.stream).toBe(true);
    expect(turn.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(turn.messages[1]?.text).toBe('hello, what can you do?');
    expect(turn.tools).toHaveLength(17);
    expect(turn.tools[0]).toMatchObject({ name: 'clarify', index: 0 });
    expect(turn.tools[13]).toMatchObject({ name: 'terminal', index: 13 });
    expect(turn.tools.every((tool) => tool.description.length > 0)).toBe(true);
    expect(turn.hasImages).toBe(false);
    expect(turn.requestId).toBe('request-1');
  });

  it('estimates tokens within 5% of JSON characters / 4', () => {
    for (const number of [1, 2, 3, 4, 5]) {
      const body = hermesTurn(number);
      const characters = JSON.stringify(body['messages']).length + (body['tools'] === undefined ? 0 : JSON.stringify(body['tools']).length);
      const turn = decodeOpenAiChatRequest(body, context);
      expect(turn.estimatedInputTokens).toBeGreaterThan((characters / 4) * 0.95);
      expect(turn.estimatedInputTokens).toBeLessThan((characters / 4) * 1.05);
    }
  });

  it('decodes the title request (no stream, no tools)', () => {
    const turn = decodeOpenAiChatRequest(hermesTurn(2), context);
    expect(turn.stream).toBe(false);
    expect(turn.tools).toEqual([]);
    expect(turn.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('decodes the tool-loop continuation: tool call names and the tool result', () => {
    const turn = decodeOpenAiChatRequest(hermesTurn(4), context);
    expect(turn.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    expect(turn.messages[4]?.toolCallNames).toEqual(['terminal']);
    expect(turn.messages[5]?.text).toContain('hello.py');
  });

  it('estimates a 70 KB Hermes body from its length within 10% of the walked count', () => {
    // The saved file is pretty-printed; clients send compact JSON (or close to it). What a decode costs is
    // printed by bench/decode.ts (a speed is not asserted on a shared machine).
    const text = JSON.stringify(JSON.parse(readFileSync(join(hermesRequestsDirectory, 'turn-5.json'), 'utf8')));
    const body = JSON.parse(text) as JsonObject;
    const timed = { ...context, bodyLength: text.length };
    const walked = decodeOpenAiChatRequest(body, context).estimatedInputTokens;
    expect(Math.abs(decodeOpenAiChatRequest(body, timed).estimatedInputTokens - walked) / walked).toBeLessThan(0.1);
  });
});

describe('decodeOpenAiChatRequest validation and views', () => {
  const valid = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
  it('rejects bodies that are not objects', () => expectInvalid(() => decodeOpenAiChatRequest([], context), 'JSON object'));
  it('requires a model', () => expectInvalid(() => decodeOpenAiChatRequest({ ...valid, model: '' }, context), "'model'"));
  it('requires messages', () => expectInvalid(() => decodeOpenAiChatRequest({ model: 'm', messages: [] }, context), "'messages'"));
  it('rejects an unknown role', () =>
    expectInvalid(() => decodeOpenAiChatRequest({ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, context), "'messages[0].role'"));
  it('rejects a non-boolean stream', () => expectInvalid(() => decodeOpenAiChatRequest({ ...valid, stream: 'yes' }, context), "'stream'"));
  it('rejects a tool without a name', () =>
    expectInvalid(() => decodeOpenAiChatRequest({ ...valid, tools: [{ type: 'function', function: {} }] }, context), "'tools[0].function.name'"));
  it('rejects a content part without a type', () =>
    expectInvalid(() => decodeOpenAiChatRequest({ model: 'm', messages: [{ role: 'user', content: [{ text: 'x' }] }] }, context), "'messages[0].content[0]'"));

  it('joins text parts, detects images, maps developer to system', () => {
    const turn = decodeOpenAiChatRequest(
      {
        model: 'm',
        messages: [
          { role: 'developer', content: 'rules' },
          { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }, { type: 'text', text: 'here' }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        ],
      },
      context,
    );
    expect(turn.messages).toEqual([
      { role: 'system', text: 'rules', toolCallNames: [], hasImage: false },
      { role: 'user', text: 'look\nhere', toolCallNames: [], hasImage: true },
      { role: 'assistant', text: '', toolCallNames: ['read'], hasImage: false },
    ]);
    expect(turn.hasImages).toBe(true);
  });
});

describe('decodeAnthropicMessagesRequest', () => {
  it('decodes a Hermes body translated to Anthropic: system view first, tool results viewed as tool', () => {
    const body = openAiRequestToAnthropic(hermesTurn(4));
    const turn = decodeAnthropicMessagesRequest(body, context);
    expect(turn.format).toBe('anthropic-messages');
    expect(turn.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    expect(turn.messages[0]?.text.length).toBeGreaterThan(10_000);
    expect(turn.messages[4]?.toolCallNames).toEqual(['terminal']);
    expect(turn.tools.map((tool) => tool.name)).toContain('terminal');
    expect(turn.stream).toBe(true);
    expect(turn.estimatedInputTokens).toBeGreaterThan(15_000);
  });

  it('reads system blocks, images and images inside tool results', () => {
    const turn = decodeAnthropicMessagesRequest(
      {
        model: 'claude',
        max_tokens: 100,
        system: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }],
        messages: [
          { role: 'user', content: 'plain' },
          { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 't', name: 'shot', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'done' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } }] },
            ],
          },
        ],
        tools: [{ name: 'shot', description: 'Take a screenshot', input_schema: { type: 'object' } }],
      },
      context,
    );
    expect(turn.messages).toEqual([
      { role: 'system', text: 'one\ntwo', toolCallNames: [], hasImage: false },
      { role: 'user', text: 'plain', toolCallNames: [], hasImage: false },
      { role: 'assistant', text: 'calling', toolCallNames: ['shot'], hasImage: false },
      { role: 'tool', text: 'done', toolCallNames: [], hasImage: true },
    ]);
    expect(turn.tools).toEqual([{ name: 'shot', description: 'Take a screenshot', index: 0 }]);
    expect(turn.hasImages).toBe(true);
    expect(turn.stream).toBe(false);
  });

  const valid = { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
  it('requires max_tokens, like Anthropic', () =>
    expectInvalid(() => decodeAnthropicMessagesRequest({ model: 'claude', messages: valid.messages }, context), 'max_tokens'));
  it('views a system message inside messages as a system message (the API takes it; Claude Code sends it)', () => {
    const turn = decodeAnthropicMessagesRequest({ ...valid, messages: [...valid.messages, { role: 'system', content: [{ type: 'text', text: 'note' }] }] }, context);
    expect(turn.messages.map((message) => [message.role, message.text])).toEqual([['user', 'hi'], ['system', 'note']]);
  });
  it('rejects a role the API does not have', () =>
    expectInvalid(() => decodeAnthropicMessagesRequest({ ...valid, messages: [{ role: 'narrator', content: 'x' }] }, context), 'messages.0.role'));
  it('rejects a malformed system', () => expectInvalid(() => decodeAnthropicMessagesRequest({ ...valid, system: 5 }, context), 'system'));
  it('rejects a tool without a name', () => expectInvalid(() => decodeAnthropicMessagesRequest({ ...valid, tools: [{}] }, context), 'tools.0.name'));
  it('requires a model', () => expectInvalid(() => decodeAnthropicMessagesRequest({ ...valid, model: 3 }, context), 'model'));
});
