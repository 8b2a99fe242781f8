import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readNumber, readObject } from '../json-read.js';

/** chat `finish_reason` → Gemini `finishReason` (a function call ends with STOP in Gemini). */
export function geminiFinishReason(finishReason: unknown): string {
  if (finishReason === 'length') return 'MAX_TOKENS';
  if (finishReason === 'content_filter') return 'SAFETY';
  return 'STOP';
}

/** chat `usage` → Gemini `usageMetadata` (thoughts are inside the candidates count in chat, outside in Gemini). */
export function usageMetadataFromChat(usage: unknown): JsonObject | undefined {
  if (!isJsonObject(usage)) return undefined;
  const prompt = readNumber(usage, 'prompt_tokens') ?? 0;
  const completion = readNumber(usage, 'completion_tokens') ?? 0;
  const reasoning = readNumber(readObject(usage, 'completion_tokens_details') ?? {}, 'reasoning_tokens') ?? 0;
  const cached = readNumber(readObject(usage, 'prompt_tokens_details') ?? {}, 'cached_tokens') ?? 0;
  const metadata: JsonObject = {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, completion - reasoning),
    totalTokenCount: prompt + completion,
  };
  if (reasoning > 0) metadata['thoughtsTokenCount'] = reasoning;
  if (cached > 0) metadata['cachedContentTokenCount'] = cached;
  return metadata;
}

/** A function call part; the chat call id rides along so the client's `functionResponse` can name it. */
export function functionCallPart(id: string, name: string, argumentsText: string): JsonObject {
  let args: unknown = {};
  try {
    args = JSON.parse(argumentsText.length > 0 ? argumentsText : '{}');
  } catch {
    args = {};
  }
  return { functionCall: { id, name, args: isJsonObject(args) ? args : {} } };
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** An OpenAI-shaped error body → Google's `{error: {code, message, status}}`. */
export function geminiErrorBody(status: number, body: unknown): JsonObject {
  const error = isJsonObject(body) && isJsonObject(body['error']) ? body['error'] : {};
  const message = typeof error['message'] === 'string' ? error['message'] : 'The request failed.';
  return { error: { code: status, message, status: statusNames[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
}
