import type { JsonObject } from '../../core/json.js';
import { emptyUsage } from '../../core/usage.js';
import { readNumber, readObject, readObjects, readString } from '../json-read.js';
import { createOpenAiUsageAccumulator } from '../openai-chat/usage.js';
import { anthropicMessageId } from './anthropic-message-id.js';
import { anthropicToolId } from './openai-request-to-anthropic.js';
import { openAiFinishReasonToAnthropic } from './openai-finish-reason-to-anthropic.js';
import type { AnthropicStreamEvent, StreamTranslator } from './stream-translator.js';
import { usageToAnthropic } from './usage-to-wire.js';

export interface OpenAiToAnthropicStreamOptions {
  model: string;
}

interface ToolBlock {
  kind: 'tool';
  index: number;
  toolKey: number;
  id: string;
  name: string;
  argumentsText: string;
  /** `content_block_start` sent; it waits for the tool's name, which a vendor may send after the id. */
  started: boolean;
}

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | ToolBlock;

/**
 * Chat-completion chunks → Messages stream events. Blocks open and close as the deltas change kind; tool calls
 * are keyed by their `index` (not by `id`: alibaba repeats `id:""` on continuations, and the first call may
 * have index 1). The usage chunk may come after the finish chunk, so `message_delta`/`message_stop` wait for
 * usage or for `finish()`.
 */
export function createOpenAiToAnthropicStream(
  options: OpenAiToAnthropicStreamOptions,
): StreamTranslator<JsonObject, AnthropicStreamEvent> {
  const usage = createOpenAiUsageAccumulator();
  let started = false;
  let ended = false;
  let finishReason: unknown;
  let usageSeen = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  /** Anthropic block index of every tool call seen, so a late fragment of an earlier call still lands. */
  const toolBlocks = new Map<number, number>();

  const openIndex = (): number => open?.index ?? 0;
  const event = (data: JsonObject): AnthropicStreamEvent => ({ event: String(data['type']), data });
  const blockDelta = (index: number, delta: JsonObject): AnthropicStreamEvent =>
    event({ type: 'content_block_delta', index, delta });

  const start = (chunk: JsonObject | undefined): AnthropicStreamEvent[] => {
    if (started) return [];
    started = true;
    const chunkId = chunk === undefined ? undefined : readString(chunk, 'id');
    return [
      event({
        type: 'message_start',
        message: {
          id: anthropicMessageId(chunkId),
          type: 'message',
          role: 'assistant',
          model: options.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // Chat completions report usage at the end; a vendor that sends it early gets its input count shown.
          usage: { ...usageToAnthropic(usage.result() ?? emptyUsage()), output_tokens: 0 },
        },
      }),
    ];
  };

  const startTool = (tool: ToolBlock): AnthropicStreamEvent[] => {
    tool.started = true;
    const events = [
      event({
        type: 'content_block_start',
        index: tool.index,
        content_block: {
          type: 'tool_use',
          id: tool.id.length > 0 ? anthropicToolId(tool.id) : `toolu_${crypto.randomUUID().replaceAll('-', '')}`,
          name: tool.name,
          input: {},
        },
      }),
    ];
    if (tool.argumentsText.length > 0) {
      events.push(blockDelta(tool.index, { type: 'input_json_delta', partial_json: tool.argumentsText }));
    }
    return events;
  };

  const close = (): AnthropicStreamEvent[] => {
    if (open === undefined) return [];
    const events: AnthropicStreamEvent[] = [];
    if (open.kind === 'tool' && !open.started) events.push(...startTool(open));
    // A tool call that streamed no arguments has `{}` input; an empty JSON string would not parse.
    if (open.kind === 'tool' && open.argumentsText.trim().length === 0) {
      events.push(event({ type: 'content_block_delta', index: open.index, delta: { type: 'input_json_delta', partial_json: '{}' } }));
    }
    events.push(event({ type: 'content_block_stop', index: open.index }));
    open = undefined;
    return events;
  };

  const openBlock = (kind: 'text' | 'thinking'): AnthropicStreamEvent[] => {
    if (open?.kind === kind) return [];
    const events = close();
    open = { kind, index: nextIndex++ };
    const contentBlock = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    events.push(event({ type: 'content_block_start', index: open.index, content_block: contentBlock }));
    return events;
  };

  const toolDelta = (call: JsonObject, position: number): AnthropicStreamEvent[] => {
    const toolKey = readNumber(call, 'index') ?? position;
    const called = readObject(call, 'function') ?? {};
    const fragment = readString(called, 'arguments') ?? '';
    const name = readString(called, 'name') ?? '';
    const id = readString(call, 'id') ?? '';
    if (open?.kind === 'tool' && open.toolKey === toolKey) {
      open.argumentsText += fragment;
      if (!open.started) {
        if (open.id === '') open.id = id;
        if (open.name === '') open.name = name;
        return open.name === '' ? [] : startTool(open);
      }
      return fragment.length === 0
        ? []
        : [blockDelta(open.index, { type: 'input_json_delta', partial_json: fragment })];
    }
    const earlierIndex = toolBlocks.get(toolKey);
    if (earlierIndex !== undefined) {
      // A late fragment of a call already closed: Anthropic clients accumulate by index, so it still lands.
      return fragment.length === 0
        ? []
        : [blockDelta(earlierIndex, { type: 'input_json_delta', partial_json: fragment })];
    }
    const events = close();
    const tool: ToolBlock = { kind: 'tool', index: nextIndex++, toolKey, id, name, argumentsText: fragment, started: false };
    toolBlocks.set(toolKey, tool.index);
    open = tool;
    if (name !== '') events.push(...startTool(tool));
    return events;
  };

  const end = (): AnthropicStreamEvent[] => {
    if (ended) return [];
    ended = true;
    const events = [...start(undefined), ...close()];
    events.push(
      event({
        type: 'message_delta',
        delta: { stop_reason: openAiFinishReasonToAnthropic(finishReason), stop_sequence: null },
        usage: usageToAnthropic(usage.result() ?? emptyUsage()),
      }),
      event({ type: 'message_stop' }),
    );
    return events;
  };

  return {
    push(chunk) {
      if (ended) return [];
      if (chunk['error'] !== undefined) {
        ended = true;
        const error = readObject(chunk, 'error') ?? {};
        return [event({ type: 'error', error: { type: 'api_error', message: readString(error, 'message') ?? 'upstream stream error' } })];
      }
      usage.observe(chunk);
      if (usage.result() !== undefined) usageSeen = true;
      const choice = readObjects(chunk, 'choices')[0];
      const events: AnthropicStreamEvent[] = [];
      if (choice !== undefined) {
        events.push(...start(chunk));
        const delta = readObject(choice, 'delta') ?? {};
        const reasoning = readString(delta, 'reasoning_content') ?? readString(delta, 'reasoning');
        if (reasoning !== undefined && reasoning.length > 0) {
          events.push(...openBlock('thinking'));
          events.push(blockDelta(openIndex(), { type: 'thinking_delta', thinking: reasoning }));
        }
        const text = readString(delta, 'content') ?? readString(delta, 'refusal');
        if (text !== undefined && text.length > 0) {
          events.push(...openBlock('text'), blockDelta(openIndex(), { type: 'text_delta', text }));
        }
        readObjects(delta, 'tool_calls').forEach((call, position) => events.push(...toolDelta(call, position)));
        const reason = choice['finish_reason'];
        if (typeof reason === 'string') {
          finishReason = reason;
          events.push(...close());
        }
      }
      if (finishReason !== undefined && usageSeen) events.push(...end());
      return events;
    },
    finish: end,
  };
}

