import type { ClientHints, Continuation } from '../core/turn.js';

/** What the server knows about a request before its body is decoded. */
export interface DecodeContext {
  requestId: string;
  receivedAt: number;
  hints: ClientHints;
  /**
   * Bytes of the raw JSON body, when the server has it (characters, for ASCII). The token estimate is then that / 4 and no JSON
   * is walked: walking Hermes's 46 KB of tool schemas alone costs about 0.06–0.09 ms. Without it the decoder
   * sums string lengths over messages, system and tools (same estimate within a few percent).
   */
  bodyLength?: number;
  /** The stored conversation the request continues, loaded by the server (Responses `previous_response_id`). */
  continuation?: Continuation;
}

export function estimateTokens(characters: number): number {
  return Math.ceil(characters / charactersPerToken);
}

/** Characters per token for the cheap estimate; never a tokenizer on the hot path. */
export const charactersPerToken = 4;
