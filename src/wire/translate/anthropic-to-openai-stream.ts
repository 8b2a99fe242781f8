import type { JsonObject } from '../../core/json.js';
import { createAnthropicUsageAccumulator } from '../anthropic-messages/usage.js';
import { readNumber, readObject, readString } from '../json-read.js';
import { anthropicStopReasonToOpenAi } from './anthropic-stop-reason-to-openai.js';
import type { StreamTranslator } from './stream-translator.js';
import { usageToOpenAi } from './usage-to-wire.js';

export interface AnthropicToOpenAiStreamOptions {
  model: string;
  /** The client asked for `stream_options.include_usage`: end with a `choices: []` usage chunk. */
  includeUsage: boolean;
}

interface ToolBlock {
  /** Position among the message's tool calls: OpenAI's `tool_calls[].index`. */
  toolIndex: number;
  sentArguments: boolean;
  /** `input` of the block start; real Anthropic streams `{}` there and the arguments as deltas. */
  startInput: JsonObject;
}

/**
 * Messages stream events (parsed `data:` payloads) → chat-completion chunks. One chunk id for the whole
 * stream, the role chunk first, thinking as `reasoning_content`, tool calls numbered among tool calls only,
 * the finish chunk at `message_stop` (or `finish()`), then the usage chunk when asked for.
 */
export function createAnthropicToOpenAiStream(
  options: AnthropicToOpenAiStreamOptions,
): StreamTranslator<JsonObject, JsonObject> {
  const usage = createAnthropicUsageAccumulator();
  const toolBlocks = new Map<number, ToolBlock>();
  let id = `chatcmpl-${crypto.randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  let finished = false;
  let toolCount = 0;
  let stopReason: unknown;

  const chunk = (delta: JsonObject, finishReason: string | null = null): JsonObject => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: options.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });

  const start = (): JsonObject[] => {
    if (started) return [];
    started = true;
    return [chunk({ role: 'assistant', content: '' })];
  };

  const end = (): JsonObject[] => {
    if (finished) return [];
    finished = true;
    const chunks = [...start(), ...closeToolsWithoutArguments(), chunk({}, anthropicStopReasonToOpenAi(stopReason))];
    const reported = usage.result();
    if (options.includeUsage && reported !== undefined) {
      chunks.push({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [], usage: usageToOpenAi(reported) });
    }
    return chunks;
  };

  /** A tool call whose input never streamed still needs its arguments: `{}`, never an empty string. */
  const argumentsChunk = (tool: ToolBlock, fragment: string): JsonObject => {
    tool.sentArguments = true;
    return chunk({ tool_calls: [{ index: tool.toolIndex, function: { arguments: fragment } }] });
  };
  const closeToolsWithoutArguments = (): JsonObject[] => {
    const chunks: JsonObject[] = [];
    for (const tool of toolBlocks.values()) if (!tool.sentArguments) chunks.push(argumentsChunk(tool, JSON.stringify(tool.startInput)));
    toolBlocks.clear();
    return chunks;
  };

  return {
    push(event) {
      if (finished) return [];
      usage.observe(event);
      const blockIndex = readNumber(event, 'index') ?? 0;
      switch (event['type']) {
        case 'message_start': {
          const message = readObject(event, 'message');
          const messageId = message === undefined ? undefined : readString(message, 'id');
          if (!started && messageId !== undefined && messageId.length > 0) id = messageId;
          return start();
        }
        case 'content_block_start': {
          const block = readObject(event, 'content_block') ?? {};
          const chunks = start();
          if (block['type'] === 'tool_use') {
            const tool: ToolBlock = { toolIndex: toolCount++, sentArguments: false, startInput: readObject(block, 'input') ?? {} };
            toolBlocks.set(blockIndex, tool);
            const call = { index: tool.toolIndex, id: block['id'], type: 'function', function: { name: block['name'], arguments: '' } };
            chunks.push(chunk({ tool_calls: [call] }));
          } else if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'].length > 0) {
            chunks.push(chunk({ content: block['text'] }));
          } else if (block['type'] === 'thinking' && typeof block['thinking'] === 'string' && block['thinking'].length > 0) {
            chunks.push(chunk({ reasoning_content: block['thinking'] }));
          }
          return chunks;
        }
        case 'content_block_delta': {
          const delta = readObject(event, 'delta') ?? {};
          const chunks = start();
          if (delta['type'] === 'text_delta') {
            const text = readString(delta, 'text');
            if (text !== undefined && text.length > 0) chunks.push(chunk({ content: text }));
          } else if (delta['type'] === 'thinking_delta') {
            const thinking = readString(delta, 'thinking');
            if (thinking !== undefined && thinking.length > 0) chunks.push(chunk({ reasoning_content: thinking }));
          } else if (delta['type'] === 'input_json_delta') {
            const tool = toolBlocks.get(blockIndex);
            const fragment = readString(delta, 'partial_json');
            if (tool !== undefined && fragment !== undefined && fragment.length > 0) chunks.push(argumentsChunk(tool, fragment));
          }
          return chunks;
        }
        case 'content_block_stop': {
          const tool = toolBlocks.get(blockIndex);
          if (tool === undefined) return [];
          toolBlocks.delete(blockIndex);
          return tool.sentArguments ? [] : [argumentsChunk(tool, JSON.stringify(tool.startInput))];
        }
        case 'message_delta': {
          const delta = readObject(event, 'delta');
          const reason = delta === undefined ? undefined : delta['stop_reason'];
          if (reason !== undefined && reason !== null) stopReason = reason;
          return start();
        }
        case 'message_stop':
          return end();
        case 'error': {
          // OpenAI SDKs raise on a chunk carrying `error`; the stream then ends without a clean finish.
          finished = true;
          const error = readObject(event, 'error') ?? {};
          const message = readString(error, 'message') ?? 'upstream stream error';
          return [{ error: { message, type: readString(error, 'type') ?? 'api_error' } }];
        }
        default: // ping, and event types added later
          return [];
      }
    },
    finish: end,
  };
}

