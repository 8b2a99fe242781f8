import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';
import type { InterceptedCall, RecoveryFilter, ThinkingBlock } from '../recovery-filter.js';
import { createRecoveryFilter, type RecoveryStream, type ResponseFilter } from '../shared-recovery-filter.js';

/**
 * The recovery filter for Anthropic Messages events. Intercepted tool_use blocks vanish and the blocks after
 * them are renumbered; a continuation's message_start is dropped and its blocks numbered after the ones the
 * client already has, so the client sees one message.
 */
export function createAnthropicRecoveryFilter(next: ClientEmitter, toolName: string): RecoveryFilter {
  // Client block numbers run on across continuations.
  let nextClientIndex = 0;

  function createResponse(stream: RecoveryStream): ResponseFilter {
    const blocks = new Map<number, number | InterceptedCall>();
    const intercepted: InterceptedCall[] = [];
    const thinking = new Map<number, ThinkingBlock>();
    let realToolUses = 0;

    function forward(payload: JsonObject, raw: string | undefined, eventName: string | undefined, upstreamIndex: number, clientIndex: number) {
      if (upstreamIndex === clientIndex) stream.next.emit(payload, raw, eventName);
      else stream.next.emit({ ...payload, index: clientIndex }, undefined, eventName);
    }

    return {
      emit(payload, raw, eventName) {
        const type = payload.type;
        if (type === 'message_start' && stream.continuation) return;
        if (type === 'content_block_start' && typeof payload.index === 'number') {
          const block = isJsonObject(payload.content_block) ? payload.content_block : {};
          if (block.type === 'tool_use' && block.name === toolName) {
            const call: InterceptedCall = { id: typeof block.id === 'string' ? block.id : `toolu_request_toolset_${payload.index}`, argumentsText: '' };
            blocks.set(payload.index, call);
            intercepted.push(call);
            return;
          }
          if (block.type === 'tool_use') {
            realToolUses += 1;
            if (typeof block.name === 'string') stream.calledTool(block.name);
          }
          if (block.type === 'thinking' || block.type === 'redacted_thinking') {
            thinking.set(payload.index, {
              type: block.type,
              ...(typeof block.thinking === 'string' ? { thinking: block.thinking } : {}),
              ...(typeof block.signature === 'string' && block.signature ? { signature: block.signature } : {}),
              ...(typeof block.data === 'string' ? { data: block.data } : {}),
            });
          }
          const clientIndex = nextClientIndex;
          nextClientIndex += 1;
          blocks.set(payload.index, clientIndex);
          forward(payload, raw, eventName, payload.index, clientIndex);
          return;
        }
        if ((type === 'content_block_delta' || type === 'content_block_stop') && typeof payload.index === 'number') {
          const target = blocks.get(payload.index);
          const delta = isJsonObject(payload.delta) ? payload.delta : undefined;
          if (typeof target === 'object') {
            if (delta && typeof delta.partial_json === 'string') target.argumentsText += delta.partial_json;
            return;
          }
          if (delta) {
            if (typeof delta.text === 'string') stream.addText(delta.text);
            const thought = thinking.get(payload.index);
            if (thought && typeof delta.thinking === 'string') thought.thinking = (thought.thinking ?? '') + delta.thinking;
            if (thought && typeof delta.signature === 'string') thought.signature = (thought.signature ?? '') + delta.signature;
          }
          forward(payload, raw, eventName, payload.index, target ?? payload.index);
          return;
        }
        if (type === 'message_delta') {
          const delta = isJsonObject(payload.delta) ? payload.delta : {};
          if (delta.stop_reason === 'tool_use' && intercepted.length > 0 && realToolUses === 0) {
            stream.hold({ payload, raw, eventName });
            return;
          }
        }
        if (type === 'message_stop' && stream.holding) {
          stream.hold({ payload, raw, eventName });
          return;
        }
        stream.next.emit(payload, raw, eventName);
      },
      interceptedCalls: () => [...intercepted],
      thinkingBlocks: () => [...thinking.values()],
    };
  }

  return createRecoveryFilter(next, {
    createResponse,
    released(event) {
      if (event.payload.type === 'message_delta' && isJsonObject(event.payload.delta)) {
        return { payload: { ...event.payload, delta: { ...event.payload.delta, stop_reason: 'end_turn' } }, raw: undefined, eventName: event.eventName };
      }
      return event;
    },
    endsAfterRelease: false,
  });
}
