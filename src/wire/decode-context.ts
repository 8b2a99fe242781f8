import type { ClientHints } from '../core/turn.js';

/** What the server knows about a request before its body is decoded. */
export interface DecodeContext {
  requestId: string;
  receivedAt: number;
  hints: ClientHints;
}

/** Characters per token for the cheap estimate; never a tokenizer on the hot path. */
export const charactersPerToken = 4;
