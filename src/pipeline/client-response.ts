/**
 * The part of `ServerResponse` the chat path writes through. A `ServerResponse` is one; so is an inbound
 * adapter's translating response (`translating-response.ts`), which re-encodes a chat-completions answer for a
 * client of another API (Responses, Gemini) before it reaches the socket.
 */
export interface ClientResponse {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  on(event: 'close', listener: () => void): unknown;
}
