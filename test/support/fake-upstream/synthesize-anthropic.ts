import type { SyntheticContent } from './synthetic-content.js';

/**
 * Messages-API replies in Anthropic's documented shape: `message_start` (usage with output_tokens 1), a `ping`,
 * one content block per text / tool_use (tool input streamed as `input_json_delta` fragments), `message_delta`
 * with the stop reason and final usage, then `message_stop`.
 */

function stopReason(content: SyntheticContent): string {
  return content.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function inputUsage(content: SyntheticContent): Record<string, unknown> {
  const written = content.usage.cacheWriteTokens ?? 0;
  const written1h = content.usage.cacheWrite1hTokens ?? 0;
  return {
    input_tokens: content.usage.inputTokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: content.usage.cacheReadTokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: written - written1h, ephemeral_1h_input_tokens: written1h },
  };
}

export function anthropicEvents(content: SyntheticContent, messageId: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: content.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...inputUsage(content), output_tokens: 1 },
      },
    },
  ];
  let blockIndex = 0;
  if (content.textPieces.length > 0) {
    const index = blockIndex++;
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    events.push({ type: 'ping' });
    for (const piece of content.textPieces) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    }
    events.push({ type: 'content_block_stop', index });
  }
  for (const call of content.toolCalls) {
    const index = blockIndex++;
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    for (const piece of call.argumentPieces) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    events.push({ type: 'content_block_stop', index });
  }
  if (blockIndex === 0) events.push({ type: 'ping' });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(content), stop_sequence: null },
    usage: { output_tokens: content.usage.outputTokens },
  });
  events.push({ type: 'message_stop' });
  return events;
}

export function anthropicBody(content: SyntheticContent, messageId: string): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [];
  const text = content.textPieces.join('');
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of content.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(call.argumentsJson) });
  }
  return {
    id: messageId,
    type: 'message',
    role: 'assistant',
    model: content.model,
    content: blocks,
    stop_reason: stopReason(content),
    stop_sequence: null,
    usage: { ...inputUsage(content), output_tokens: content.usage.outputTokens },
  };
}
