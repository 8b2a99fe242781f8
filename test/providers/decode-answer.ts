import type { RecordedFormat } from './recorded-answers.js';
import type { ApiFormat } from '../../src/core/api-format.js';
import { isJsonObject, type JsonObject } from '../../src/core/json.js';
import type { Usage } from '../../src/core/usage.js';
import { wireFormat } from '../../src/wire/formats.js';
import { foldAnthropicStream, foldedToolInput } from '../../src/wire/test-support/fold-anthropic-stream.js';
import { foldOpenAiStream } from '../../src/wire/test-support/fold-openai-stream.js';
import type { ExpectedToolCall } from './recorded-answers.js';

/** An answer as a client ends up seeing it: what the contract suite compares with the recording's content. */
export interface DecodedAnswer {
  text: string;
  thinking: string;
  toolCalls: ExpectedToolCall[];
  stopReason: string | undefined;
  usage: Usage | undefined;
}

interface AnswerReader {
  fromStream(payloads: JsonObject[]): DecodedAnswer;
  fromBody(body: JsonObject): DecodedAnswer;
}

function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const openAiChatReader: AnswerReader = {
  fromStream(payloads) {
    const folded = foldOpenAiStream(payloads);
    return {
      text: folded.text,
      thinking: folded.reasoning,
      toolCalls: folded.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.parse(call.argumentsText) as unknown })),
      stopReason: folded.finishReason,
      usage: folded.usage,
    };
  },
  fromBody(body) {
    const choice = objects(body['choices'])[0] ?? {};
    const message = isJsonObject(choice['message']) ? choice['message'] : {};
    return {
      text: text(message['content']),
      thinking: text(message['reasoning_content']),
      toolCalls: objects(message['tool_calls']).map((call) => {
        const called = isJsonObject(call['function']) ? call['function'] : {};
        return { id: text(call['id']), name: text(called['name']), arguments: JSON.parse(text(called['arguments'])) as unknown };
      }),
      stopReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : undefined,
      usage: wireFormat('openai-chat').usageFromBody(body),
    };
  },
};

const anthropicMessagesReader: AnswerReader = {
  fromStream(payloads) {
    const folded = foldAnthropicStream(payloads);
    if (folded.problems.length > 0) throw new Error(`stream out of order: ${folded.problems.join('; ')}`);
    return {
      text: folded.blocks.filter((block) => block.type === 'text').map((block) => block.text).join(''),
      thinking: folded.blocks.filter((block) => block.type === 'thinking').map((block) => block.text).join(''),
      toolCalls: folded.blocks
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({ id: block.id, name: block.name, arguments: foldedToolInput(block) })),
      stopReason: folded.stopReason,
      usage: folded.usage,
    };
  },
  fromBody(body) {
    const blocks = objects(body['content']);
    return {
      text: blocks.filter((block) => block['type'] === 'text').map((block) => text(block['text'])).join(''),
      thinking: blocks.filter((block) => block['type'] === 'thinking').map((block) => text(block['thinking'])).join(''),
      toolCalls: blocks
        .filter((block) => block['type'] === 'tool_use')
        .map((block) => ({ id: text(block['id']), name: text(block['name']), arguments: block['input'] })),
      stopReason: typeof body['stop_reason'] === 'string' ? body['stop_reason'] : undefined,
      usage: wireFormat('anthropic-messages').usageFromBody(body),
    };
  },
};

/** One reader per wire format, the way that format's official client accumulates an answer. */
export const answerReaders: Record<RecordedFormat, AnswerReader> = {
  'openai-chat': openAiChatReader,
  'anthropic-messages': anthropicMessagesReader,
};
