import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { StreamEvent } from '../wire-format.js';

/** The events of a Messages stream that carries `body`: message_start, each block, message_delta, message_stop. */
export function anthropicBodyAsEvents(body: JsonObject): StreamEvent[] {
  const content = Array.isArray(body.content) ? body.content.filter(isJsonObject) : [];
  const usage = isJsonObject(body.usage) ? body.usage : {};
  const events: { event: string; data: JsonObject }[] = [
    { event: 'message_start', data: { type: 'message_start', message: { ...body, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } } } },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text ?? '' } } });
    } else if (block.type === 'tool_use') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...block, input: {} } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } } });
    } else if (block.type === 'thinking') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking ?? '' } } });
      if (typeof block.signature === 'string') events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } } });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: body.stop_reason ?? 'end_turn', stop_sequence: body.stop_sequence ?? null }, usage: { output_tokens: usage.output_tokens ?? 0 } },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events.map((event) => ({ payload: event.data, eventName: event.event }));
}
