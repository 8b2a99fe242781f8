import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { MessageView, ToolView, Turn } from '../core/turn.js';
import { type DecodeContext, estimateTokens } from './decode-context.js';

/** What a format's decoder read from its body: the rest of the `Turn` is the same for every format. */
export interface DecodedView {
  requestedModel: string;
  stream: boolean;
  messages: MessageView[];
  tools: ToolView[];
  hasImages: boolean;
  /** Characters the token estimate counts (the raw body's length, or the walked JSON's). */
  characters: number;
}

/** The `Turn` over `body` of `format`, from what its decoder read. */
export function turnOf(format: ApiFormat, body: JsonObject, context: DecodeContext, view: DecodedView): Turn {
  return {
    requestId: context.requestId,
    receivedAt: context.receivedAt,
    format,
    body,
    requestedModel: view.requestedModel,
    stream: view.stream,
    messages: view.messages,
    tools: view.tools,
    hasImages: view.hasImages,
    estimatedInputTokens: estimateTokens(view.characters),
    hints: context.hints,
    ...(context.continuation === undefined ? {} : { continuation: context.continuation }),
  };
}
