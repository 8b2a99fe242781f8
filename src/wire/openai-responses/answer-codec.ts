import { isJsonObject, type JsonObject } from '../../core/json.js';

const finalTypes = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Watches a Responses answer on its way to the client (the events are written unchanged, named after their
 * `type`; a mid-stream error is an `error` event) and keeps the final response object — the body, or the
 * response the terminal event carries — for the store.
 */
export class ResponsesAnswerRecorder {
  private complete: JsonObject | undefined;

  get response(): JsonObject | undefined {
    return this.complete;
  }

  streamChunk(event: JsonObject): string {
    const type = typeof event['type'] === 'string' ? event['type'] : 'error';
    if (finalTypes.has(type) && isJsonObject(event['response'])) this.complete = event['response'];
    return `event: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
  }

  streamEnd(): string {
    return '';
  }

  json(body: JsonObject): JsonObject {
    if (body['object'] === 'response') this.complete = body;
    return body;
  }

  error(_status: number, body: unknown): unknown {
    return body;
  }
}
