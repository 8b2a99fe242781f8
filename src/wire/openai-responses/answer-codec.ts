import type { JsonObject } from '../../core/json.js';
import { chatCompletionToResponse } from './chat-completion-to-response.js';
import { ChatStreamToResponses, type ResponsesEvent } from './chat-stream-to-responses.js';
import type { ResponseEcho } from './envelope.js';

function encode(events: ResponsesEvent[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`).join('');
}

/**
 * A chat-completions answer re-encoded for a Responses API client: named SSE events (no `[DONE]`) or one
 * response object. Chat error bodies already have the Responses API's error shape. `response` is the final
 * response object once the answer is complete, for the store.
 */
export class ResponsesAnswerCodec {
  private readonly stream: ChatStreamToResponses;
  private complete: JsonObject | undefined;

  constructor(
    private readonly echo: ResponseEcho,
    private readonly customTools: ReadonlySet<string>,
  ) {
    this.stream = new ChatStreamToResponses(echo, customTools);
  }

  get response(): JsonObject | undefined {
    return this.complete ?? this.stream.response;
  }

  streamChunk(chunk: JsonObject): string {
    return encode(this.stream.push(chunk));
  }

  streamEnd(): string {
    return encode(this.stream.finish());
  }

  json(completion: JsonObject): JsonObject {
    this.complete = chatCompletionToResponse(completion, this.echo, this.customTools);
    return this.complete;
  }

  error(_status: number, body: unknown): unknown {
    return body;
  }
}
