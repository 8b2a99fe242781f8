import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import { emptyUsage } from '../../core/usage.js';
import { foldAnthropicStream, foldedToolInput } from '../test-support/fold-anthropic-stream.js';
import { foldOpenAiStream } from '../test-support/fold-openai-stream.js';
import { anthropicStreamRecordings, openAiStreamRecordings, readStreamRecording } from '../test-support/recordings.js';
import { createAnthropicToOpenAiStream } from './anthropic-to-openai-stream.js';
import { anthropicStopReasonToOpenAi } from './anthropic-stop-reason-to-openai.js';
import { openAiFinishReasonToAnthropic } from './openai-finish-reason-to-anthropic.js';
import { anthropicToolId } from './openai-request-to-anthropic.js';
import { createOpenAiToAnthropicStream } from './openai-to-anthropic-stream.js';
import { anthropicStreamEventTypes, openAiChunkDeltaFields, openAiChunkFields, openAiReasoningDeltaField } from './sdk-fields.js';

function translateAnthropic(events: JsonObject[], includeUsage = true): JsonObject[] {
  const translator = createAnthropicToOpenAiStream({ model: 'client-model', includeUsage });
  return [...events.flatMap((event) => translator.push(event)), ...translator.finish()];
}

function translateOpenAi(chunks: JsonObject[]): { event: string; data: JsonObject }[] {
  const translator = createOpenAiToAnthropicStream({ model: 'client-model' });
  return [...chunks.flatMap((chunk) => translator.push(chunk)), ...translator.finish()];
}

describe('Anthropic stream → OpenAI chunks, on every Anthropic recording', () => {
  for (const path of anthropicStreamRecordings()) {
    it(basename(path), () => {
      const events = readStreamRecording(path);
      const source = foldAnthropicStream(events);
      const chunks = translateAnthropic(events);
      const folded = foldOpenAiStream(chunks);

      for (const chunk of chunks) {
        for (const key of Object.keys(chunk)) expect(openAiChunkFields).toContain(key);
        const delta = readDelta(chunk) as JsonObject | undefined;
        for (const key of Object.keys(delta ?? {})) expect([...openAiChunkDeltaFields, openAiReasoningDeltaField]).toContain(key);
      }
      expect(folded.chunkIds.size).toBe(1);
      expect(folded.id).toBe(source.id);
      expect(readDelta(chunks[0])).toEqual({ role: 'assistant', content: '' });
      expect(chunks.every((chunk) => chunk['model'] === 'client-model')).toBe(true);
      expect(folded.text).toBe(textOf(source.blocks, 'text'));
      expect(folded.reasoning).toBe(textOf(source.blocks, 'thinking'));
      expect(folded.toolCalls.map((call) => ({ id: call.id, name: call.name, input: JSON.parse(call.argumentsText) as unknown }))).toEqual(
        source.blocks.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name, input: foldedToolInput(block) })),
      );
      expect(folded.finishReason).toBe(anthropicStopReasonToOpenAi(source.stopReason));
      expect(folded.usage).toEqual(source.usage);
      // The usage chunk is last and has no choices.
      expect(chunks.at(-1)?.['choices']).toEqual([]);
      expect(chunks.filter((chunk) => finishReasonOf(chunk) !== null)).toHaveLength(1);
    });
  }

  it('numbers tool calls among tool calls, not content blocks', () => {
    const path = anthropicStreamRecordings().find((name) => name.endsWith('anthropic-tool-no-args.chunks.txt'));
    const chunks = translateAnthropic(readStreamRecording(path ?? ''));
    const indexes = chunks.flatMap((chunk) => toolCallsOf(chunk).map((call) => call['index']));
    expect(new Set(indexes)).toEqual(new Set([0]));
    // The tool took no arguments: the client must see `{}`, not an empty string.
    expect(foldOpenAiStream(chunks).toolCalls[0]?.argumentsText).toBe('{}');
  });

  it('omits the usage chunk unless asked', () => {
    const chunks = translateAnthropic(readStreamRecording(anthropicStreamRecordings()[0] ?? ''), false);
    expect(chunks.some((chunk) => Array.isArray(chunk['choices']) && chunk['choices'].length === 0)).toBe(false);
  });

  it('finishes a stream cut before message_stop, and ignores events after it', () => {
    const translator = createAnthropicToOpenAiStream({ model: 'm', includeUsage: false });
    translator.push({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3, output_tokens: 1 } } });
    translator.push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'x', input: {} } });
    const closing = translator.finish();
    expect(closing.map(finishReasonOf).filter((reason) => reason !== null)).toEqual(['stop']);
    expect(toolCallsOf(closing[0] ?? {})[0]).toMatchObject({ function: { arguments: '{}' } });
    expect(translator.push({ type: 'message_stop' })).toEqual([]);
    expect(translator.finish()).toEqual([]);
  });

  it('turns an error event into an OpenAI error chunk', () => {
    const translator = createAnthropicToOpenAiStream({ model: 'm', includeUsage: true });
    translator.push({ type: 'message_start', message: { id: 'msg_1' } });
    expect(translator.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toEqual([
      { error: { message: 'Overloaded', type: 'overloaded_error' } },
    ]);
    expect(translator.finish()).toEqual([]);
  });
});

describe('OpenAI chunks → Anthropic stream, on every OpenAI recording', () => {
  for (const path of openAiStreamRecordings()) {
    it(basename(path), () => {
      const chunks = readStreamRecording(path);
      const source = foldOpenAiStream(chunks);
      const events = translateOpenAi(chunks);
      const folded = foldAnthropicStream(events.map((event) => event.data));

      expect(events.every((event) => event.event === event.data['type'])).toBe(true);
      for (const event of events) expect(anthropicStreamEventTypes).toContain(event.event);
      expect(events[0]?.event).toBe('message_start');
      expect(events.at(-1)?.event).toBe('message_stop');
      expect(folded.problems).toEqual([]);
      expect(folded.messageStops).toBe(1);
      expect(textOf(folded.blocks, 'text')).toBe(source.text);
      expect(textOf(folded.blocks, 'thinking')).toBe(source.reasoning);
      expect(
        folded.blocks.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name, input: foldedToolInput(block) })),
      ).toEqual(
        source.toolCalls.map((call) => ({
          id: anthropicToolId(call.id),
          name: call.name,
          input: call.argumentsText.trim() === '' ? {} : (JSON.parse(call.argumentsText) as unknown),
        })),
      );
      expect(folded.stopReason).toBe(openAiFinishReasonToAnthropic(source.finishReason));
      expect(folded.usage).toEqual(source.usage ?? emptyUsage());
    });
  }

  it('holds message_delta until the usage chunk that follows the finish chunk', () => {
    const path = openAiStreamRecordings().find((name) => name.endsWith('openai-text.chunks.txt'));
    const chunks = readStreamRecording(path ?? '');
    const translator = createOpenAiToAnthropicStream({ model: 'm' });
    const beforeUsage = chunks.slice(0, -1).flatMap((chunk) => translator.push(chunk));
    expect(beforeUsage.some((event) => event.event === 'message_delta')).toBe(false);
    const atUsage = translator.push(chunks.at(-1) ?? {});
    expect(atUsage.map((event) => event.event)).toEqual(['message_delta', 'message_stop']);
    expect(atUsage[0]?.data['usage']).toMatchObject({ input_tokens: 16, output_tokens: 300 });
    expect(translator.finish()).toEqual([]);
  });

  it('keeps alibaba continuation deltas (id "") in the same tool call', () => {
    const path = openAiStreamRecordings().find((name) => name.endsWith('alibaba-tool-call.chunks.txt'));
    const events = translateOpenAi(readStreamRecording(path ?? ''));
    const starts = events.filter((event) => event.event === 'content_block_start');
    expect(starts).toHaveLength(1);
    expect(starts[0]?.data['content_block']).toMatchObject({ type: 'tool_use', id: 'call_eee11723464a4b9eb8cee71d', name: 'weather' });
  });

  it('gives a tool call with no argument text `{}` input', () => {
    const events = translateOpenAi([
      { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'now', arguments: '' } }] } }] },
      { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    const folded = foldAnthropicStream(events.map((event) => event.data));
    expect(folded.blocks.map(foldedToolInput)).toEqual([{}]);
    expect(folded.stopReason).toBe('tool_use');
  });

  it('waits for a tool name that arrives after the id', () => {
    const events = translateOpenAi([
      { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { arguments: '{"a"' } }] } }] },
      { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'lookup', arguments: ':1}' } }] } }] },
      { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    const folded = foldAnthropicStream(events.map((event) => event.data));
    expect(folded.problems).toEqual([]);
    expect(folded.blocks.map((block) => ({ id: block.id, name: block.name, input: foldedToolInput(block) }))).toEqual([
      { id: 'call_9', name: 'lookup', input: { a: 1 } },
    ]);
  });

  it('closes an open block when the stream ends without a finish chunk', () => {
    const events = translateOpenAi([{ id: 'c', choices: [{ index: 0, delta: { content: 'partial' } }] }]);
    const folded = foldAnthropicStream(events.map((event) => event.data));
    expect(folded.problems).toEqual([]);
    expect(folded.messageStops).toBe(1);
  });
});

function readDelta(chunk: JsonObject | undefined): unknown {
  const choices = chunk?.['choices'];
  return Array.isArray(choices) ? (choices[0] as JsonObject | undefined)?.['delta'] : undefined;
}

function finishReasonOf(chunk: JsonObject): unknown {
  const choices = chunk['choices'];
  return Array.isArray(choices) && choices.length > 0 ? ((choices[0] as JsonObject)['finish_reason'] ?? null) : null;
}

function toolCallsOf(chunk: JsonObject): JsonObject[] {
  const delta = readDelta(chunk) as JsonObject | undefined;
  const calls = delta?.['tool_calls'];
  return Array.isArray(calls) ? (calls as JsonObject[]) : [];
}

function textOf(blocks: { type: string; text: string }[], type: string): string {
  return blocks
    .filter((block) => block.type === type)
    .map((block) => block.text)
    .join('');
}
