import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import { usageFromAnthropicBody } from '../anthropic-messages/usage.js';
import { usageFromOpenAiBody } from '../openai-chat/usage.js';
import { readJsonObject, recordingsDirectory } from '../test-support/recordings.js';
import { anthropicResponseToOpenAi } from './anthropic-response-to-openai.js';
import { anthropicStopReasonToOpenAi } from './anthropic-stop-reason-to-openai.js';
import { dropUnsignedThinking } from './drop-unsigned-thinking.js';
import { openAiFinishReasonToAnthropic } from './openai-finish-reason-to-anthropic.js';
import { openAiResponseToAnthropic } from './openai-response-to-anthropic.js';

const recording = (path: string): JsonObject => readJsonObject(join(recordingsDirectory, path));
const firstChoice = (body: JsonObject): JsonObject => (body['choices'] as JsonObject[])[0] ?? {};
const messageOf = (body: JsonObject): JsonObject => firstChoice(body)['message'] as JsonObject;

describe('anthropicResponseToOpenAi', () => {
  it('translates a text message with its usage', () => {
    const source = recording('anthropic/anthropic-text.json');
    const openAi = anthropicResponseToOpenAi(source, { model: 'client-model' });
    expect(openAi).toMatchObject({ id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ', object: 'chat.completion', model: 'client-model' });
    expect(messageOf(openAi)).toEqual({
      role: 'assistant',
      content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
      refusal: null,
    });
    expect(firstChoice(openAi)['finish_reason']).toBe('stop');
    expect(usageFromOpenAiBody(openAi)).toEqual(usageFromAnthropicBody(source));
  });

  it('translates a tool_use message: arguments are the input as JSON', () => {
    const source = recording('anthropic/anthropic-json-tool.1.json');
    const openAi = anthropicResponseToOpenAi(source, { model: 'm' });
    const message = messageOf(openAi);
    expect(message['content']).toBeNull();
    const calls = message['tool_calls'] as JsonObject[];
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', type: 'function', function: { name: 'json' } });
    expect(JSON.parse(String((calls[0]?.['function'] as JsonObject)['arguments']))).toEqual((source['content'] as JsonObject[])[0]?.['input']);
    expect(firstChoice(openAi)['finish_reason']).toBe('tool_calls');
    expect(usageFromOpenAiBody(openAi)).toEqual({ inputTokens: 1151, outputTokens: 87, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('turns thinking into reasoning_content and keeps the thinking token count', () => {
    const source = recording('anthropic/issue-13430-thinking-tool-call.json');
    const openAi = anthropicResponseToOpenAi(source, { model: 'm' });
    const message = messageOf(openAi);
    expect(message['reasoning_content']).toBe('The user wants me to call checkSandboxErrors immediately.');
    expect((message['tool_calls'] as JsonObject[])[0]?.['function']).toEqual({ name: 'checkSandboxErrors', arguments: '{}' });
    expect(usageFromOpenAiBody(openAi)).toEqual(usageFromAnthropicBody(source));
    expect(usageFromOpenAiBody(openAi)?.reasoningTokens).toBe(18);
  });
});

describe('openAiResponseToAnthropic', () => {
  it('translates a text completion', () => {
    const source = recording('openai/openai-text.json');
    const anthropic = openAiResponseToAnthropic(source, { model: 'client-model' });
    expect(anthropic).toMatchObject({ type: 'message', role: 'assistant', model: 'client-model', stop_reason: 'end_turn', stop_sequence: null });
    expect(String(anthropic['id']).startsWith('msg_')).toBe(true);
    expect(anthropic['content']).toEqual([{ type: 'text', text: messageOf(source)['content'] }]);
    expect(usageFromAnthropicBody(anthropic)).toEqual(usageFromOpenAiBody(source));
  });

  for (const path of ['openai-compatible/deepseek-tool-call.json', 'openai-compatible/xai-tool-call.json']) {
    it(`translates reasoning and a tool call (${path})`, () => {
      const source = recording(path);
      const sourceMessage = messageOf(source);
      const anthropic = openAiResponseToAnthropic(source, { model: 'm' });
      const content = anthropic['content'] as JsonObject[];
      expect(content.map((block) => block['type'])).toEqual(['thinking', 'tool_use']);
      expect(content[0]?.['thinking']).toBe(sourceMessage['reasoning_content']);
      const call = (sourceMessage['tool_calls'] as JsonObject[])[0] ?? {};
      const called = call['function'] as JsonObject;
      expect(content[1]).toEqual({ type: 'tool_use', id: call['id'], name: called['name'], input: JSON.parse(String(called['arguments'])) });
      expect(anthropic['stop_reason']).toBe('tool_use');
      expect(usageFromAnthropicBody(anthropic)).toEqual(usageFromOpenAiBody(source));
    });
  }

  it('round-trips Anthropic → OpenAI → Anthropic for thinking + tool_use (signature aside)', () => {
    const source = recording('anthropic/issue-13430-thinking-tool-call.json');
    const back = openAiResponseToAnthropic(anthropicResponseToOpenAi(source, { model: 'm' }), { model: 'm' });
    const sourceContent = (source['content'] as JsonObject[]).map((block) =>
      block['type'] === 'thinking' ? { ...block, signature: '' } : { type: block['type'], id: block['id'], name: block['name'], input: block['input'] },
    );
    expect(back['content']).toEqual(sourceContent);
    expect(back['stop_reason']).toBe(source['stop_reason']);
    expect(usageFromAnthropicBody(back)).toEqual(usageFromAnthropicBody(source));
  });

  it('gives invalid tool arguments an empty input instead of failing', () => {
    const anthropic = openAiResponseToAnthropic(
      { id: 'x', choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"broken' } }] }, finish_reason: 'tool_calls' }] },
      { model: 'm' },
    );
    expect(anthropic['content']).toEqual([{ type: 'tool_use', id: 'c', name: 'f', input: {} }]);
  });
});

describe('finish and stop reasons', () => {
  it('maps both ways', () => {
    expect(['end_turn', 'max_tokens', 'tool_use', 'stop_sequence', 'refusal', 'pause_turn', null].map(anthropicStopReasonToOpenAi)).toEqual([
      'stop',
      'length',
      'tool_calls',
      'stop',
      'content_filter',
      'stop',
      'stop',
    ]);
    expect(['stop', 'length', 'tool_calls', 'content_filter', 'function_call', null].map(openAiFinishReasonToAnthropic)).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
      'refusal',
      'tool_use',
      'end_turn',
    ]);
  });
});

describe('dropUnsignedThinking', () => {
  it('removes only thinking blocks without a signature', () => {
    const body: JsonObject = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'a', signature: '' }, { type: 'thinking', thinking: 'b', signature: 's' }, { type: 'text', text: 'x' }] },
      ],
    };
    expect(dropUnsignedThinking(body)).toBe(1);
    expect((body['messages'] as JsonObject[])[1]?.['content']).toEqual([{ type: 'thinking', thinking: 'b', signature: 's' }, { type: 'text', text: 'x' }]);
  });
});
