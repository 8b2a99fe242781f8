import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readObject, readString } from '../json-read.js';
import { incompleteReason, responseObject, usageFromChat, type ResponseEcho } from './envelope.js';
import { responsesId } from './ids.js';
import { callItem, messageItem, reasoningItem } from './output-items.js';

/** One Responses stream event: the SSE event name is the payload's `type`. */
export interface ResponsesEvent {
  type: string;
  data: JsonObject;
}

interface OpenText {
  kind: 'message' | 'reasoning';
  id: string;
  outputIndex: number;
  text: string;
}

interface OpenCall {
  id: string;
  outputIndex: number;
  callId: string;
  name: string;
  argumentsText: string;
}

/**
 * Chat-completions chunks → the Responses event sequence: `response.created`, `response.in_progress`, then per
 * output item `output_item.added` … deltas … `output_item.done` (text: `content_part.added`,
 * `output_text.delta`/`.done`, `content_part.done`; reasoning: `reasoning_summary_part.added`,
 * `reasoning_summary_text.delta`/`.done`; calls: `function_call_arguments.delta`/`.done`), and
 * `response.completed` (or `.incomplete`) with the whole response and its usage. A chat `error` chunk ends it
 * with `response.failed`. Every event carries a `sequence_number`.
 */
export class ChatStreamToResponses {
  private sequence = 0;
  private started = false;
  private ended = false;
  private readonly output: JsonObject[] = [];
  private openText: OpenText | undefined;
  /** Calls by their chat `index`; open until the stream finishes (parallel calls may interleave). */
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: unknown;
  private usage: JsonObject | null = null;
  private model: string | undefined;
  private finalResponse: JsonObject | undefined;

  constructor(
    private readonly echo: ResponseEcho,
    private readonly customTools: ReadonlySet<string>,
  ) {}

  /** The final response object once the stream has ended (completed, incomplete or failed). */
  get response(): JsonObject | undefined {
    return this.finalResponse;
  }

  push(chunk: JsonObject): ResponsesEvent[] {
    if (this.ended) return [];
    const events = this.start();
    if (isJsonObject(chunk['error'])) return [...events, ...this.fail(chunk['error'])];
    if (typeof chunk['model'] === 'string') this.model = chunk['model'];
    if (chunk['usage'] !== undefined && chunk['usage'] !== null) this.usage = usageFromChat(chunk['usage']);
    const choice = Array.isArray(chunk['choices']) && isJsonObject(chunk['choices'][0]) ? chunk['choices'][0] : undefined;
    if (choice === undefined) return events;
    const delta = readObject(choice, 'delta') ?? {};
    const reasoning = readString(delta, 'reasoning_content') ?? readString(delta, 'reasoning');
    if (reasoning !== undefined && reasoning.length > 0) events.push(...this.appendText('reasoning', reasoning));
    const content = readString(delta, 'content');
    if (content !== undefined && content.length > 0) events.push(...this.appendText('message', content));
    for (const call of Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : []) {
      if (isJsonObject(call)) events.push(...this.appendCall(call));
    }
    if (choice['finish_reason'] !== undefined && choice['finish_reason'] !== null) this.finishReason = choice['finish_reason'];
    return events;
  }

  /** The chat stream ended (`[DONE]` or its end): close what is open and send the terminal event. */
  finish(): ResponsesEvent[] {
    if (this.ended) return [];
    const events = [...this.start(), ...this.closeText(), ...this.closeCalls()];
    this.ended = true;
    const reason = incompleteReason(this.finishReason);
    const response = responseObject(this.echo, reason === null ? 'completed' : 'incomplete', this.output, {
      usage: this.usage,
      incompleteReason: reason,
      ...(this.model !== undefined ? { model: this.model } : {}),
    });
    this.finalResponse = response;
    events.push(this.event(reason === null ? 'response.completed' : 'response.incomplete', { response }));
    return events;
  }

  private event(type: string, fields: JsonObject): ResponsesEvent {
    return { type, data: { type, sequence_number: this.sequence++, ...fields } };
  }

  private start(): ResponsesEvent[] {
    if (this.started) return [];
    this.started = true;
    const response = responseObject(this.echo, 'in_progress', []);
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  private fail(error: JsonObject): ResponsesEvent[] {
    const events = [...this.closeText(), ...this.closeCalls()];
    this.ended = true;
    const failure = { code: readString(error, 'code') ?? readString(error, 'type') ?? 'server_error', message: readString(error, 'message') ?? 'the upstream failed' };
    const response = responseObject(this.echo, 'failed', this.output, { usage: this.usage, error: failure });
    this.finalResponse = response;
    events.push(this.event('response.failed', { response }));
    return events;
  }

  private appendText(kind: OpenText['kind'], text: string): ResponsesEvent[] {
    const events: ResponsesEvent[] = [];
    if (this.openText?.kind !== kind) {
      events.push(...this.closeText());
      const id = responsesId(kind === 'message' ? 'msg' : 'rs');
      const open: OpenText = { kind, id, outputIndex: this.output.length, text: '' };
      this.openText = open;
      // Reserve the slot so later items (calls) get the next index; the final item replaces it on close.
      this.output.push({});
      if (kind === 'message') {
        events.push(this.event('response.output_item.added', { output_index: open.outputIndex, item: messageItem('', id, 'in_progress') }));
        events.push(this.contentPartAdded(open));
      } else {
        events.push(this.event('response.output_item.added', { output_index: open.outputIndex, item: { id, type: 'reasoning', summary: [] } }));
        events.push(this.event('response.reasoning_summary_part.added', { item_id: id, output_index: open.outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } }));
      }
    }
    const open = this.openText;
    if (open === undefined) return events;
    open.text += text;
    events.push(
      kind === 'message'
        ? this.event('response.output_text.delta', { item_id: open.id, output_index: open.outputIndex, content_index: 0, delta: text, logprobs: [] })
        : this.event('response.reasoning_summary_text.delta', { item_id: open.id, output_index: open.outputIndex, summary_index: 0, delta: text }),
    );
    return events;
  }

  private contentPartAdded(open: OpenText): ResponsesEvent {
    return this.event('response.content_part.added', { item_id: open.id, output_index: open.outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  }

  private closeText(): ResponsesEvent[] {
    const open = this.openText;
    if (open === undefined) return [];
    this.openText = undefined;
    const base = { item_id: open.id, output_index: open.outputIndex };
    if (open.kind === 'message') {
      const item = messageItem(open.text, open.id);
      this.output[open.outputIndex] = item;
      const part = { type: 'output_text', text: open.text, annotations: [] };
      return [
        this.event('response.output_text.done', { ...base, content_index: 0, text: open.text, logprobs: [] }),
        this.event('response.content_part.done', { ...base, content_index: 0, part }),
        this.event('response.output_item.done', { output_index: open.outputIndex, item }),
      ];
    }
    const item = reasoningItem(open.text, open.id);
    this.output[open.outputIndex] = item;
    return [
      this.event('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: open.text }),
      this.event('response.reasoning_summary_part.done', { ...base, summary_index: 0, part: { type: 'summary_text', text: open.text } }),
      this.event('response.output_item.done', { output_index: open.outputIndex, item }),
    ];
  }

  private appendCall(delta: JsonObject): ResponsesEvent[] {
    const index = typeof delta['index'] === 'number' ? delta['index'] : this.calls.size;
    const called = readObject(delta, 'function') ?? {};
    const events: ResponsesEvent[] = [];
    let call = this.calls.get(index);
    if (call === undefined) {
      events.push(...this.closeText());
      const name = readString(called, 'name') ?? '';
      const callId = readString(delta, 'id') || `call_${responsesId('fc').slice(3, 27)}`;
      const item = callItem(callId, name, '', this.customTools);
      call = { id: String(item['id']), outputIndex: this.output.length, callId, name, argumentsText: '' };
      this.calls.set(index, call);
      this.output.push(item);
      events.push(this.event('response.output_item.added', { output_index: call.outputIndex, item: { ...item, status: 'in_progress' } }));
    } else if (call.name === '' && typeof called['name'] === 'string') {
      call.name = called['name'];
    }
    const fragment = readString(called, 'arguments');
    if (fragment !== undefined && fragment.length > 0) {
      call.argumentsText += fragment;
      // Custom tool input is only known whole (it is unwrapped from `{input}`): it is sent at the end.
      if (!this.customTools.has(call.name)) {
        events.push(this.event('response.function_call_arguments.delta', { item_id: call.id, output_index: call.outputIndex, delta: fragment }));
      }
    }
    return events;
  }

  private closeCalls(): ResponsesEvent[] {
    const events: ResponsesEvent[] = [];
    for (const call of this.calls.values()) {
      const argumentsText = call.argumentsText.length > 0 ? call.argumentsText : '{}';
      const item = callItem(call.callId, call.name, argumentsText, this.customTools, call.id);
      this.output[call.outputIndex] = item;
      if (item['type'] === 'custom_tool_call') {
        events.push(this.event('response.custom_tool_call_input.done', { item_id: call.id, output_index: call.outputIndex, input: item['input'] }));
      } else {
        events.push(this.event('response.function_call_arguments.done', { item_id: call.id, output_index: call.outputIndex, name: call.name, arguments: argumentsText }));
      }
      events.push(this.event('response.output_item.done', { output_index: call.outputIndex, item }));
    }
    this.calls.clear();
    return events;
  }
}
