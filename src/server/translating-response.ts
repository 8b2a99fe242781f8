import type { ServerResponse } from 'node:http';
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { ClientResponse } from '../pipeline/client-response.js';

/**
 * Re-encodes a chat-completions answer for a client of another API. Pure functions of parsed chat output: the
 * Responses and Gemini adapters implement it in `wire/`.
 */
export interface AnswerCodec {
  /** The content type of the client's stream; `text/event-stream` when absent. */
  readonly streamContentType?: string;
  /** One parsed chat stream chunk → the client's SSE text (zero or more frames). */
  streamChunk(chunk: JsonObject): string;
  /** The chat stream ended (`[DONE]`, or the body ended without it) → the closing frames. */
  streamEnd(): string;
  /** A complete `chat.completion` body → the client's body. */
  json(completion: JsonObject): JsonObject;
  /** A chat-format error body (any status ≥ 400) → the client's error body. */
  error(status: number, body: unknown): unknown;
}

/**
 * A `ClientResponse` that the chat path writes chat-completions output into (JSON, SSE frames, errors) and that
 * writes the client's own API to the socket. SSE frames are translated as they come, so streaming stays
 * streaming; a JSON body is translated whole. `beforeEnd` runs before the last bytes go out (the Responses
 * adapter stores the response there, so the client's next call can already continue from it).
 */
export class TranslatingResponse implements ClientResponse {
  private started = false;
  private ended = false;
  private streaming = false;
  private status = 200;
  private headers: Record<string, string> = {};
  private pending = '';
  private streamClosed = false;
  private readonly done: Promise<void>;
  private resolveDone: () => void = () => {};

  constructor(
    private readonly response: ServerResponse,
    private readonly codec: AnswerCodec,
    private readonly beforeEnd: () => Promise<void> = async () => {},
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  get headersSent(): boolean {
    return this.started;
  }

  get destroyed(): boolean {
    return this.response.destroyed;
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  get writableFinished(): boolean {
    return this.response.writableFinished;
  }

  on(event: 'close', listener: () => void): this {
    this.response.on(event, listener);
    return this;
  }

  writeHead(status: number, headers: Record<string, string>): this {
    if (this.started) return this;
    this.started = true;
    this.status = status;
    this.headers = withoutLength(headers);
    this.streaming = (headers['content-type'] ?? '').startsWith('text/event-stream');
    const contentType = this.codec.streamContentType;
    if (this.streaming && contentType !== undefined) this.headers['content-type'] = contentType;
    if (this.streaming) this.response.writeHead(status, this.headers);
    return this;
  }

  write(chunk: string): boolean {
    this.pending += chunk;
    if (this.streaming) this.translateFrames();
    return true;
  }

  end(chunk?: string): this {
    if (this.ended) return this;
    if (chunk !== undefined) this.pending += chunk;
    this.ended = true;
    void this.finish();
    return this;
  }

  /** A header the path set on the response (e.g. which provider answered), by its lower-case name. */
  sentHeader(name: string): string | undefined {
    for (const [key, value] of Object.entries(this.headers)) if (key.toLowerCase() === name) return value;
    return undefined;
  }

  /** Resolves when the client's response has ended (after `beforeEnd`). */
  settled(): Promise<void> {
    return this.done;
  }

  private async finish(): Promise<void> {
    try {
      let tail = '';
      let body: string | undefined;
      if (this.streaming) {
        this.translateFrames();
        if (!this.streamClosed) tail = this.codec.streamEnd();
      } else {
        body = JSON.stringify(this.translateJson());
      }
      // Storing may fail (a store outage): the answer still reaches the client.
      await this.beforeEnd().catch(() => undefined);
      if (this.response.destroyed || this.response.writableEnded) return;
      if (body !== undefined) {
        this.response.writeHead(this.status, { ...this.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        this.response.end(body);
      } else {
        this.response.end(tail);
      }
    } finally {
      this.resolveDone();
    }
  }

  private translateJson(): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.pending);
    } catch {
      parsed = undefined;
    }
    if (this.status >= 400) return this.codec.error(this.status, parsed);
    return isJsonObject(parsed) ? this.codec.json(parsed) : this.codec.error(502, parsed);
  }

  /** Translates every complete `data:` frame in the buffer; a partial frame waits for the rest. */
  private translateFrames(): void {
    let out = '';
    for (;;) {
      const boundary = this.pending.indexOf('\n\n');
      if (boundary === -1) break;
      const frame = this.pending.slice(0, boundary);
      this.pending = this.pending.slice(boundary + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data === '' || this.streamClosed) continue;
      if (data === '[DONE]') {
        out += this.codec.streamEnd();
        this.streamClosed = true;
        continue;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        continue;
      }
      if (isJsonObject(chunk)) out += this.codec.streamChunk(chunk);
    }
    if (out !== '' && !this.response.destroyed) this.response.write(out);
  }
}

function withoutLength(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-length') copy[name] = value;
  return copy;
}
