import { loadUndici } from './undici-agent.js';

/**
 * Whether a request failed because the provider closed a kept-alive connection just as the gateway reused it:
 * the peer ended the connection (a clean close, not a reset) before a byte of answer, on a socket that had
 * already carried an answer. That is the keep-alive race (the provider's idle timeout fired as the request was
 * written); the provider closed an idle connection, so the request was not being served, and it would have
 * worked on a new connection. Browsers and Go's HTTP client resend in this case too.
 *
 * Not included: a reset (the provider had the request and broke it off), a close on a new connection (a
 * provider that hangs up without answering is failing), timeouts and refusals. Those stay failures of the
 * attempt, which the attempt loop answers by failing over.
 */
export function closedWhenReused(error: unknown): boolean {
  if (!(error instanceof loadUndici().errors.SocketError)) return false;
  const socket = (error as { socket?: { bytesRead?: number } }).socket;
  return typeof socket?.bytesRead === 'number' && socket.bytesRead > 0;
}
