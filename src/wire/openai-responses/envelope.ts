import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readNumber, readObject } from '../json-read.js';

/** The request facts a response object repeats back, fixed when the request arrives. */
export interface ResponseEcho {
  id: string;
  createdAt: number;
  model: string;
  body: JsonObject;
  previousResponseId: string | undefined;
  store: boolean;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** A chat-completions `usage` in the Responses API's shape. */
export function usageFromChat(usage: unknown): JsonObject | null {
  if (!isJsonObject(usage)) return null;
  const input = readNumber(usage, 'prompt_tokens') ?? 0;
  const output = readNumber(usage, 'completion_tokens') ?? 0;
  const cached = readNumber(readObject(usage, 'prompt_tokens_details') ?? {}, 'cached_tokens') ?? 0;
  const reasoning = readNumber(readObject(usage, 'completion_tokens_details') ?? {}, 'reasoning_tokens') ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: readNumber(usage, 'total_tokens') ?? input + output,
  };
}

/** Why a response stopped short, from the chat finish reason; null when it did not. */
export function incompleteReason(finishReason: unknown): string | null {
  if (finishReason === 'length') return 'max_output_tokens';
  if (finishReason === 'content_filter') return 'content_filter';
  return null;
}

/** The response object: the request's settings echoed back around the output items. */
export function responseObject(
  echo: ResponseEcho,
  status: ResponseStatus,
  output: JsonObject[],
  extra: { usage?: JsonObject | null; incompleteReason?: string | null; error?: JsonObject | null; model?: string } = {},
): JsonObject {
  const body = echo.body;
  const reasoning = readObject(body, 'reasoning');
  return {
    id: echo.id,
    object: 'response',
    created_at: echo.createdAt,
    status,
    background: false,
    error: extra.error ?? null,
    incomplete_details: extra.incompleteReason ? { reason: extra.incompleteReason } : null,
    instructions: body['instructions'] ?? null,
    max_output_tokens: body['max_output_tokens'] ?? null,
    metadata: isJsonObject(body['metadata']) ? body['metadata'] : {},
    model: extra.model ?? echo.model,
    output,
    parallel_tool_calls: body['parallel_tool_calls'] ?? true,
    previous_response_id: echo.previousResponseId ?? null,
    reasoning: { effort: reasoning?.['effort'] ?? null, summary: reasoning?.['summary'] ?? null },
    store: echo.store,
    temperature: body['temperature'] ?? null,
    text: isJsonObject(body['text']) ? body['text'] : { format: { type: 'text' } },
    tool_choice: body['tool_choice'] ?? 'auto',
    tools: Array.isArray(body['tools']) ? body['tools'] : [],
    top_p: body['top_p'] ?? null,
    truncation: body['truncation'] ?? 'disabled',
    usage: extra.usage ?? null,
    user: body['user'] ?? null,
  };
}

/** The text of a response's `output_text` parts, as the SDKs' `output_text` convenience joins them. */
export function outputText(output: readonly JsonObject[]): string {
  const texts: string[] = [];
  for (const item of output) {
    if (item['type'] !== 'message' || !Array.isArray(item['content'])) continue;
    for (const part of item['content']) if (isJsonObject(part) && part['type'] === 'output_text' && typeof part['text'] === 'string') texts.push(part['text']);
  }
  return texts.join('');
}
