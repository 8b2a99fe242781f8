/**
 * Where a client's stream is written, frame by frame, in the client format's framing. The server's SSE writer
 * (src/server/sse-writer.ts) implements it over an HTTP response; the stream stages only need these four calls.
 */
export interface EventWriter {
  /** An event whose data is already serialized (pass-through keeps the provider's bytes). */
  writeRaw(data: string, eventName?: string): void;
  writeJson(payload: unknown, eventName?: string): void;
  /** The format's closing sentinel, if it has one (OpenAI `[DONE]`). */
  writeDone(): void;
  end(): void;
}
