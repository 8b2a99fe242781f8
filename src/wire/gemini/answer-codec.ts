import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readObject, readString } from '../json-read.js';
import { functionCallPart, geminiErrorBody, geminiFinishReason, usageMetadataFromChat } from './response-parts.js';

interface PendingCall {
  id: string;
  name: string;
  argumentsText: string;
}

/**
 * How a `streamGenerateContent` answer is framed: `data:` SSE chunks when the client asked for `alt=sse` (Gemini
 * CLI, the Google GenAI SDKs), else Google's default, one JSON array whose elements arrive as they are ready
 * (`[{…}` then `,\r\n{…}` … `]`), which the older SDKs and REST clients read incrementally.
 */
export type GeminiStreamFraming = 'sse' | 'json-array';

/**
 * A chat-completions answer re-encoded for a Gemini client: chunks of `GenerateContentResponse` (framed as
 * `framing` says) or one response body. Text and thoughts stream as they come; function calls are sent whole in
 * the last chunk (Gemini never streams call arguments), with the finish reason and `usageMetadata`.
 */
export class GeminiAnswerCodec {
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: unknown;
  private usage: unknown;
  private model: string;
  private ended = false;
  private elements = 0;

  constructor(
    model: string,
    private readonly responseId: string,
    private readonly framing: GeminiStreamFraming = 'sse',
  ) {
    this.model = model;
  }

  get streamContentType(): string {
    return this.framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8';
  }

  streamChunk(chunk: JsonObject): string {
    if (this.ended) return '';
    if (isJsonObject(chunk['error'])) {
      this.ended = true;
      return this.frame(geminiErrorBody(500, chunk)) + this.close();
    }
    if (typeof chunk['model'] === 'string') this.model = chunk['model'];
    if (chunk['usage'] !== undefined && chunk['usage'] !== null) this.usage = chunk['usage'];
    const choice = Array.isArray(chunk['choices']) && isJsonObject(chunk['choices'][0]) ? chunk['choices'][0] : undefined;
    if (choice === undefined) return '';
    if (choice['finish_reason'] !== undefined && choice['finish_reason'] !== null) this.finishReason = choice['finish_reason'];
    const delta = readObject(choice, 'delta') ?? {};
    const parts: JsonObject[] = [];
    const reasoning = readString(delta, 'reasoning_content') ?? readString(delta, 'reasoning');
    if (reasoning !== undefined && reasoning.length > 0) parts.push({ text: reasoning, thought: true });
    const content = readString(delta, 'content');
    if (content !== undefined && content.length > 0) parts.push({ text: content });
    for (const call of Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : []) {
      if (!isJsonObject(call)) continue;
      const index = typeof call['index'] === 'number' ? call['index'] : this.calls.size;
      const called = readObject(call, 'function') ?? {};
      const pending = this.calls.get(index) ?? { id: readString(call, 'id') ?? '', name: '', argumentsText: '' };
      if (pending.id === '' && typeof call['id'] === 'string') pending.id = call['id'];
      pending.name += readString(called, 'name') ?? '';
      pending.argumentsText += readString(called, 'arguments') ?? '';
      this.calls.set(index, pending);
    }
    return parts.length > 0 ? this.frame(this.response(parts)) : '';
  }

  streamEnd(): string {
    if (this.ended) return '';
    this.ended = true;
    const parts = [...this.calls.values()].map((call, index) => functionCallPart(call.id || `call_${index}`, call.name, call.argumentsText));
    const last = this.response(parts, geminiFinishReason(this.finishReason));
    const usage = usageMetadataFromChat(this.usage);
    if (usage !== undefined) last['usageMetadata'] = usage;
    return this.frame(last) + this.close();
  }

  json(completion: JsonObject): JsonObject {
    const choice = Array.isArray(completion['choices']) && isJsonObject(completion['choices'][0]) ? completion['choices'][0] : {};
    const message = readObject(choice, 'message') ?? {};
    if (typeof completion['model'] === 'string') this.model = completion['model'];
    const parts: JsonObject[] = [];
    const reasoning = readString(message, 'reasoning_content') ?? readString(message, 'reasoning');
    if (reasoning !== undefined && reasoning.length > 0) parts.push({ text: reasoning, thought: true });
    const content = message['content'];
    if (typeof content === 'string' && content.length > 0) parts.push({ text: content });
    const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'].filter(isJsonObject) : [];
    calls.forEach((call, index) => {
      const called = readObject(call, 'function') ?? {};
      parts.push(functionCallPart(readString(call, 'id') ?? `call_${index}`, readString(called, 'name') ?? '', readString(called, 'arguments') ?? '{}'));
    });
    const body = this.response(parts, geminiFinishReason(choice['finish_reason']));
    const usage = usageMetadataFromChat(completion['usage']);
    if (usage !== undefined) body['usageMetadata'] = usage;
    return body;
  }

  error(status: number, body: unknown): unknown {
    return geminiErrorBody(status, body);
  }

  private frame(payload: JsonObject): string {
    if (this.framing === 'sse') return `data: ${JSON.stringify(payload)}\n\n`;
    const separator = this.elements === 0 ? '[' : ',\r\n';
    this.elements += 1;
    return separator + JSON.stringify(payload);
  }

  /** The end of the array (an answer with no element at all is `[]`); nothing for SSE. */
  private close(): string {
    if (this.framing === 'sse') return '';
    return this.elements === 0 ? '[]' : ']';
  }

  private response(parts: JsonObject[], finishReason?: string): JsonObject {
    const candidate: JsonObject = { content: { role: 'model', parts }, index: 0 };
    if (finishReason !== undefined) candidate['finishReason'] = finishReason;
    return { candidates: [candidate], modelVersion: this.model, responseId: this.responseId };
  }
}

