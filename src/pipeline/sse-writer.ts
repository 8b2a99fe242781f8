import type { ClientResponse } from './client-response.js';
import type { ApiFormat } from '../core/api-format.js';
import type { EventWriter } from '../wire/event-writer.js';
import { wireFormat } from '../wire/formats.js';

/**
 * Writes server-sent events to a client in its API's framing: OpenAI sends bare `data:` lines and ends with
 * `[DONE]`; Anthropic names every event and sends no sentinel.
 */
export class SseWriter implements EventWriter {
  private started = false;
  /** Frames of the current tick, written together when it ends (or before the response ends). */
  private pending = '';
  /** Frames written so far, kept only while capturing for the response cache (bounded). */
  private capture: { frames: string[]; bytes: number; limit: number } | undefined;

  constructor(
    private readonly response: ClientResponse,
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

  /** Keep a copy of every frame (up to `limitBytes`) so a complete answer can be cached and replayed. */
  startCapture(limitBytes: number): void {
    this.capture = { frames: [], bytes: 0, limit: limitBytes };
  }

  /** The captured frames, or undefined when capture was off or the answer outgrew the limit. */
  captured(): string[] | undefined {
    return this.capture && this.capture.bytes <= this.capture.limit ? this.capture.frames : undefined;
  }

  /** An event whose data is already serialized (pass-through keeps the provider's bytes). */
  writeRaw(data: string, eventName?: string): void {
    if (this.response.destroyed) return;
    const frame = eventName === undefined ? `data: ${data}\n\n` : `event: ${eventName}\ndata: ${data}\n\n`;
    if (this.capture && this.capture.bytes <= this.capture.limit) {
      this.capture.frames.push(frame);
      this.capture.bytes += frame.length;
    }
    // Events parsed from one network read arrive in the same tick: they leave as one chunk in one write, not
    // one chunk and syscall per event, and none waits past the current tick.
    if (this.pending === '') process.nextTick(this.flush);
    this.pending += frame;
  }

  private readonly flush = (): void => {
    if (this.pending === '') return;
    const frames = this.pending;
    this.pending = '';
    if (!this.response.destroyed && !this.response.writableEnded) this.response.write(frames);
  };

  /** Replays frames captured earlier (a cache hit). */
  writeFrames(frames: readonly string[]): void {
    this.flush();
    this.response.write(frames.join(''));
  }

  writeJson(payload: unknown, eventName?: string): void {
    this.writeRaw(JSON.stringify(payload), eventName);
  }

  writeDone(): void {
    const endData = wireFormat(this.format).streamEndData;
    if (endData !== undefined) this.writeRaw(endData);
  }

  end(): void {
    this.flush();
    if (!this.response.destroyed && !this.response.writableEnded) this.response.end();
  }
}
