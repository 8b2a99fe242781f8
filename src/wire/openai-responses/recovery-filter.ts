import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';
import { readString } from '../json-read.js';
import type { InterceptedCall, RecoveryFilter } from '../recovery-filter.js';

interface Held {
  payload: JsonObject;
  eventName: string | undefined;
}

const terminalTypes = new Set(['response.completed', 'response.incomplete']);

/**
 * The recovery filter for Responses events. The output items of an intercepted `function_call` vanish, with
 * every event that names their `output_index`; the items after them are renumbered. A continuation's
 * `response.created` / `response.in_progress` are dropped and its items numbered after the ones the client
 * already has; every event the client sees carries the next `sequence_number`, and the terminal event's
 * `response.output` lists every item the client received, so the client sees one response.
 */
export function createResponsesRecoveryFilter(next: ClientEmitter, toolName: string): RecoveryFilter {
  /** Upstream output index → the client's index, or the intercepted call it belongs to. */
  let items = new Map<number, number | InterceptedCall>();
  let intercepted: InterceptedCall[] = [];
  let realCalls = 0;
  let held: Held[] = [];
  let holding = false;
  let text = '';
  let continuation = false;
  let nextClientIndex = 0;
  let sequence = 0;
  const delivered: JsonObject[] = [];
  const called: string[] = [];

  function send(payload: JsonObject, raw: string | undefined, eventName: string | undefined, changes: JsonObject = {}): void {
    const number = sequence;
    sequence += 1;
    const unchanged = Object.keys(changes).length === 0 && payload['sequence_number'] === number;
    if (unchanged) next.emit(payload, raw, eventName);
    else next.emit({ ...payload, ...changes, ...(payload['sequence_number'] === undefined ? {} : { sequence_number: number }) }, undefined, eventName);
  }

  function terminal(payload: JsonObject): JsonObject {
    const response = isJsonObject(payload['response']) ? payload['response'] : {};
    return { response: { ...response, output: [...delivered] } };
  }

  return {
    emit(payload, raw, eventName) {
      const type = readString(payload, 'type') ?? '';
      if ((type === 'response.created' || type === 'response.in_progress') && continuation) return;
      const upstreamIndex = typeof payload['output_index'] === 'number' ? payload['output_index'] : undefined;
      if (type === 'response.output_item.added' && upstreamIndex !== undefined) {
        const item = isJsonObject(payload['item']) ? payload['item'] : {};
        if (item['type'] === 'function_call' && item['name'] === toolName) {
          const call: InterceptedCall = { id: readString(item, 'call_id') ?? `call_request_toolset_${upstreamIndex}`, argumentsText: readString(item, 'arguments') ?? '' };
          items.set(upstreamIndex, call);
          intercepted.push(call);
          return;
        }
        if (item['type'] === 'function_call' || item['type'] === 'custom_tool_call') {
          realCalls += 1;
          const name = readString(item, 'name');
          if (name !== undefined) called.push(name);
        }
        items.set(upstreamIndex, nextClientIndex);
        nextClientIndex += 1;
      }
      if (upstreamIndex !== undefined) {
        const target = items.get(upstreamIndex);
        if (typeof target === 'object') {
          if (type === 'response.function_call_arguments.delta' && typeof payload['delta'] === 'string') target.argumentsText += payload['delta'];
          if (type === 'response.function_call_arguments.done' && typeof payload['arguments'] === 'string') target.argumentsText = payload['arguments'];
          return;
        }
        if (type === 'response.output_text.delta' && typeof payload['delta'] === 'string') text += payload['delta'];
        const clientIndex = target ?? upstreamIndex;
        if (type === 'response.output_item.done' && isJsonObject(payload['item'])) delivered.push(payload['item']);
        send(payload, raw, eventName, clientIndex === upstreamIndex ? {} : { output_index: clientIndex });
        return;
      }
      if (terminalTypes.has(type)) {
        if (intercepted.length > 0 && realCalls === 0) {
          holding = true;
          held.push({ payload, eventName });
          return;
        }
        if (intercepted.length > 0 || continuation) {
          send(payload, undefined, eventName, terminal(payload));
          return;
        }
      }
      send(payload, raw, eventName);
    },
    done() {
      if (!holding) next.done();
    },
    pendingRecovery: () => (holding ? [...intercepted] : undefined),
    interceptedCalls: () => [...intercepted],
    calledToolNames: () => [...called],
    responseText: () => text,
    thinkingBlocks: () => [],
    beginContinuation() {
      items = new Map();
      intercepted = [];
      realCalls = 0;
      held = [];
      holding = false;
      text = '';
      continuation = true;
    },
    releaseHeld() {
      for (const entry of held) send(entry.payload, undefined, entry.eventName, terminal(entry.payload));
      held = [];
      holding = false;
    },
  };
}
