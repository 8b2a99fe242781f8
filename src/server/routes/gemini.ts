import type { IncomingMessage, ServerResponse } from 'node:http';
import { toGatewayError } from '../../core/errors.js';
import type { Gateway } from '../../pipeline/gateway.js';
import { GeminiAnswerCodec } from '../../wire/gemini/answer-codec.js';
import { readGeminiRequest, type GeminiMethod } from '../../wire/gemini/request.js';
import { geminiToChatRequest } from '../../wire/gemini/request-to-chat.js';
import { geminiErrorBody } from '../../wire/gemini/response-parts.js';
import { approximateJsonLength } from '../../wire/json-size.js';
import { estimateTokens } from '../../wire/decode-context.js';
import { renderError } from '../../wire/render-error.js';
import { readJsonRequest } from '../read-body.js';
import { sendJson } from '../../pipeline/send.js';
import { TranslatingResponse } from '../translating-response.js';
import { handleChat, type ChatRequestContext } from './chat-route.js';

/**
 * The Gemini API (`models/{model}:generateContent`, `:streamGenerateContent`, `:countTokens`) on top of the
 * chat path, so Gemini CLI can use any configured model: the request is translated into chat completions and
 * the answer re-encoded. A stream is SSE when the client asked for `alt=sse` (Gemini CLI, the GenAI SDKs) and
 * otherwise Google's default: one JSON array streamed element by element.
 */
export async function handleGemini(
  gateway: Gateway,
  request: IncomingMessage,
  response: ServerResponse,
  target: { model: string; method: GeminiMethod },
  context: ChatRequestContext,
): Promise<void> {
  let body: unknown;
  let length: number;
  try {
    ({ body, length } = await readJsonRequest(request, gateway.config.server.body_limit_bytes));
    const parsed = readGeminiRequest(body, target.model, target.method === 'streamGenerateContent');
    if (target.method === 'countTokens') {
      // An estimate (characters / 4), like the gateway's own routing; no provider counts for us.
      sendJson(response, 200, { totalTokens: estimateTokens(approximateJsonLength(parsed.contents)) });
      return;
    }
    const codec = new GeminiAnswerCodec(target.model, context.requestId, altSse(request.url) ? 'sse' : 'json-array');
    const translating = new TranslatingResponse(response, codec);
    await handleChat(gateway, 'openai-chat', request, translating, context, { body: geminiToChatRequest(parsed), length });
    await translating.settled();
  } catch (caught) {
    const error = toGatewayError(caught);
    const rendered = renderError(error, 'openai-chat');
    sendJson(response, rendered.status, geminiErrorBody(rendered.status, rendered.body), { 'x-hermes-router-request-id': context.requestId });
  }
}

function altSse(url: string | undefined): boolean {
  const queryStart = url?.indexOf('?') ?? -1;
  return url !== undefined && queryStart !== -1 && new URLSearchParams(url.slice(queryStart + 1)).get('alt') === 'sse';
}
