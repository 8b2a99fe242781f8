import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';
import type { InterceptedCall, RecoveryFilter } from '../recovery-filter.js';
import { createRecoveryFilter, type RecoveryStream, type ResponseFilter } from '../shared-recovery-filter.js';

function isEmptyDelta(delta: JsonObject): boolean {
  return Object.keys(delta).every((key) => delta[key] === undefined || delta[key] === null || (key === 'content' && delta[key] === ''));
}

/** The recovery filter for OpenAI chat-completion chunks. */
export function createOpenAiRecoveryFilter(next: ClientEmitter, toolName: string): RecoveryFilter {
  /** The first chunk's `id`: one response keeps one id, so a re-issue's chunks are relabelled with it. */
  let responseId: string | undefined;

  function createResponse(stream: RecoveryStream): ResponseFilter {
    const intercepted = new Map<number, InterceptedCall>();
    const clientIndexOf = new Map<number, number>();

    function filterToolCalls(delta: JsonObject): boolean {
      const calls = delta.tool_calls;
      if (!Array.isArray(calls)) return false;
      const kept: unknown[] = [];
      let changed = false;
      for (const call of calls) {
        if (!isJsonObject(call)) continue;
        const index = typeof call.index === 'number' ? call.index : 0;
        const fn = isJsonObject(call.function) ? call.function : {};
        const argumentsPart = typeof fn.arguments === 'string' ? fn.arguments : '';
        if (fn.name === toolName && !clientIndexOf.has(index)) {
          intercepted.set(index, { id: typeof call.id === 'string' ? call.id : `call_request_toolset_${index}`, argumentsText: argumentsPart });
          changed = true;
          continue;
        }
        const pending = intercepted.get(index);
        if (pending) {
          pending.argumentsText += argumentsPart;
          changed = true;
          continue;
        }
        let clientIndex = clientIndexOf.get(index);
        if (clientIndex === undefined) {
          clientIndex = clientIndexOf.size;
          clientIndexOf.set(index, clientIndex);
          if (typeof fn.name === 'string' && fn.name) stream.calledTool(fn.name);
        }
        if (clientIndex !== index) {
          kept.push({ ...call, index: clientIndex });
          changed = true;
        } else kept.push(call);
      }
      if (!changed) return false;
      if (kept.length > 0) delta.tool_calls = kept;
      else delete delta.tool_calls;
      return true;
    }

    return {
      emit(payload, originalRaw) {
        let raw = originalRaw;
        if (typeof payload.id === 'string') {
          if (responseId === undefined) responseId = payload.id;
          else if (payload.id !== responseId) {
            payload.id = responseId;
            raw = undefined;
          }
        }
        const choices = payload.choices;
        if (Array.isArray(choices) && choices.length === 0) {
          // The usage chunk after a held finish belongs to the held end.
          if (stream.holding) stream.hold({ payload, raw, eventName: undefined });
          else stream.next.emit(payload, raw, undefined);
          return;
        }
        const choice = Array.isArray(choices) && isJsonObject(choices[0]) ? choices[0] : undefined;
        if (!choice) {
          stream.next.emit(payload, raw, undefined);
          return;
        }
        const delta = isJsonObject(choice.delta) ? choice.delta : undefined;
        if (delta && typeof delta.content === 'string') stream.addText(delta.content);
        let out = raw;
        if (delta && filterToolCalls(delta)) {
          out = undefined;
          if (isEmptyDelta(delta) && choice.finish_reason == null && payload.usage == null) return;
        }
        if (stream.continuation && delta?.role !== undefined && isEmptyDelta({ ...delta, role: undefined })) {
          // A second role chunk would be harmless, but an empty one adds nothing.
          if (choice.finish_reason == null) return;
        }
        if (choice.finish_reason != null && intercepted.size > 0 && clientIndexOf.size === 0) {
          stream.hold({ payload, raw: out, eventName: undefined });
          return;
        }
        stream.next.emit(payload, out, undefined);
      },
      interceptedCalls: () => [...intercepted.values()],
      thinkingBlocks: () => [],
    };
  }

  return createRecoveryFilter(next, {
    createResponse,
    released(event) {
      const choices = event.payload.choices;
      const choice = Array.isArray(choices) && isJsonObject(choices[0]) ? choices[0] : undefined;
      if (choice && choice.finish_reason === 'tool_calls') {
        choice.finish_reason = 'stop';
        return { payload: event.payload, raw: undefined, eventName: undefined };
      }
      return event;
    },
    endsAfterRelease: true,
  });
}
