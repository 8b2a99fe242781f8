import type { ServerResponse } from 'node:http';
import type { ApiFormat } from '../core/api-format.js';

/**
 * Writes server-sent events to a client in its API's framing: OpenAI sends bare `data:` lines and ends with
 * `[DONE]`; Anthropic names every event and sends no sentinel.
 */
export class SseWriter {
  private started = false;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    readonly format: ApiFormat,
  ) {}

  get headersSent(): boolean {
    return this.started;
  }

  start(status: number, headers: Record<string, string>): void {
    if (this.started) return;
    this.started = true;
    this.response.writeHead(status, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
  }

  /** An event whose data is already serialized (pass-through keeps the provider's bytes). */
  writeRaw(data: string, eventName?: string): void {
    if (this.response.destroyed) return;
    // Events parsed from one network read arrive in the same tick: cork so they leave in one write, not one
    // syscall per event, without delaying any of them past the current tick.
    if (!this.corked) {
      this.corked = true;
      this.response.cork();
      process.nextTick(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    this.response.write(eventName === undefined ? `data: ${data}\n\n` : `event: ${eventName}\ndata: ${data}\n\n`);
  }

  writeJson(payload: unknown, eventName?: string): void {
    this.writeRaw(JSON.stringify(payload), eventName);
  }

  writeDone(): void {
    if (this.format === 'openai-chat') this.writeRaw('[DONE]');
  }

  end(): void {
    if (!this.response.destroyed && !this.response.writableEnded) this.response.end();
  }
}
