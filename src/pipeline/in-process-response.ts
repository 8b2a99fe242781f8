import type { ClientResponse } from './client-response.js';

/** What a turn answered when it ran in process: status, headers and the whole body as text. */
export interface InProcessAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * A `ClientResponse` with no socket behind it: it keeps what the pipeline writes and resolves `answer` when the
 * pipeline ends it. For callers that run turns as a library (the session eval), so nothing has to start the HTTP
 * server to run one.
 */
export class InProcessResponse implements ClientResponse {
  headersSent = false;
  readonly destroyed = false;
  writableEnded = false;
  writableFinished = false;
  readonly answer: Promise<InProcessAnswer>;
  #status = 200;
  #headers: Record<string, string> = {};
  #text = '';
  #resolve: (answer: InProcessAnswer) => void = () => undefined;

  constructor() {
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  writeHead(status: number, headers: Record<string, string>): this {
    this.headersSent = true;
    this.#status = status;
    this.#headers = { ...headers };
    return this;
  }

  write(chunk: string): boolean {
    this.headersSent = true;
    this.#text += chunk;
    return true;
  }

  end(chunk?: string): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined) this.#text += chunk;
    this.headersSent = true;
    this.writableEnded = true;
    this.writableFinished = true;
    this.#resolve({ status: this.#status, headers: this.#headers, text: this.#text });
    return this;
  }

  /** The client never goes away mid-answer in process: `close` is never emitted. */
  on(_event: 'close', _listener: () => void): this {
    return this;
  }
}
