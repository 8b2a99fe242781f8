import type { ApiFormat } from '../../core/api-format.js';
import { GatewayError } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { Continuation } from '../../core/turn.js';
import { chatCompletionToResponse } from '../openai-responses/chat-completion-to-response.js';
import { ChatStreamToResponses } from '../openai-responses/chat-stream-to-responses.js';
import type { ResponseEcho } from '../openai-responses/envelope.js';
import { readResponsesRequest } from '../openai-responses/request.js';
import { responsesToChatRequest } from '../openai-responses/request-to-chat.js';
import type { StreamEvent } from '../wire-format.js';
import { anthropicRequestToOpenAi } from './anthropic-request-to-openai.js';
import { anthropicResponseToOpenAi } from './anthropic-response-to-openai.js';
import { createAnthropicToOpenAiStream } from './anthropic-to-openai-stream.js';
import { openAiRequestToAnthropic } from './openai-request-to-anthropic.js';
import { openAiResponseToAnthropic } from './openai-response-to-anthropic.js';
import { createOpenAiToAnthropicStream } from './openai-to-anthropic-stream.js';

/**
 * What a translation needs to know about the client's request: the body as the client sent it (a response
 * object echoes its settings), the request's id and arrival (a translated response's id and `created_at`), and
 * the stored conversation it continues.
 */
export interface TranslationContext {
  clientBody: JsonObject;
  requestId: string;
  receivedAt: number;
  model: string;
  continuation?: Continuation;
}

/** The limits a request translated into chat completions or Messages needs from its target. */
export interface RequestTranslationOptions {
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  defaultMaxTokens: number;
}

/**
 * Translation between formats goes through chat completions, the hub: every pair that exists is a path of
 * steps to and from it. A Responses client can be served by chat-completions and Messages providers; Responses
 * is never a translation target (a provider that speaks it speaks chat completions too, and gets the client's
 * own format when it is Responses).
 */
export function translateRequest(body: JsonObject, from: ApiFormat, to: ApiFormat, context: TranslationContext, options: RequestTranslationOptions): JsonObject {
  const chat = toChatRequest(body, from, context, options);
  if (to === 'openai-chat') return chat;
  if (to === 'anthropic-messages') return openAiRequestToAnthropic(chat, { defaultMaxTokens: options.defaultMaxTokens });
  throw noTranslation(from, to);
}

function toChatRequest(body: JsonObject, from: ApiFormat, context: TranslationContext, options: RequestTranslationOptions): JsonObject {
  if (from === 'openai-chat') return body;
  if (from === 'anthropic-messages') return anthropicRequestToOpenAi(body, { maxTokensField: options.maxTokensField });
  return responsesToChatRequest(readResponsesRequest(body), context.continuation?.items ?? []).chat;
}

/** A complete upstream answer in `from` as the client's `to`. */
export function translateResponseBody(body: JsonObject, from: ApiFormat, to: ApiFormat, context: TranslationContext): JsonObject {
  if (from === to) return body;
  if (from === 'openai-responses') throw noTranslation(from, to);
  const chat = from === 'anthropic-messages' ? anthropicResponseToOpenAi(body, { model: context.model }) : body;
  if (to === 'openai-chat') return chat;
  if (to === 'anthropic-messages') return openAiResponseToAnthropic(chat, { model: context.model });
  return chatCompletionToResponse(chat, responseEcho(context), customToolNames(context.clientBody));
}

/** Turns one upstream stream's events into the client's, then closes what is open when the upstream ended. */
export interface StreamTranslation {
  push(payload: JsonObject): StreamEvent[];
  finish(): StreamEvent[];
}

/** The translation of a stream from `from` to `to`; undefined when they are the same format. */
export function createStreamTranslation(from: ApiFormat, to: ApiFormat, context: TranslationContext, options: { includeUsage: boolean }): StreamTranslation | undefined {
  if (from === to) return undefined;
  if (from === 'openai-responses') throw noTranslation(from, to);
  const toChat: StreamTranslation | undefined =
    from === 'anthropic-messages' ? chatEvents(createAnthropicToOpenAiStream({ model: context.model, includeUsage: to !== 'openai-chat' || options.includeUsage })) : undefined;
  const fromChat: StreamTranslation | undefined =
    to === 'anthropic-messages'
      ? anthropicEvents(createOpenAiToAnthropicStream({ model: context.model }))
      : to === 'openai-responses'
        ? responsesEvents(new ChatStreamToResponses(responseEcho(context), customToolNames(context.clientBody)))
        : undefined;
  if (toChat === undefined) return fromChat;
  if (fromChat === undefined) return toChat;
  return {
    push: (payload) => toChat.push(payload).flatMap((event) => fromChat.push(event.payload)),
    finish: () => [...toChat.finish().flatMap((event) => fromChat.push(event.payload)), ...fromChat.finish()],
  };
}

function chatEvents(translator: { push(event: JsonObject): JsonObject[]; finish(): JsonObject[] }): StreamTranslation {
  const wrap = (chunks: JsonObject[]): StreamEvent[] => chunks.map((payload) => ({ payload, eventName: undefined }));
  return { push: (payload) => wrap(translator.push(payload)), finish: () => wrap(translator.finish()) };
}

function anthropicEvents(translator: { push(chunk: JsonObject): { event: string; data: Record<string, unknown> }[]; finish(): { event: string; data: Record<string, unknown> }[] }): StreamTranslation {
  const wrap = (events: { event: string; data: Record<string, unknown> }[]): StreamEvent[] => events.map((event) => ({ payload: event.data as JsonObject, eventName: event.event }));
  return { push: (payload) => wrap(translator.push(payload)), finish: () => wrap(translator.finish()) };
}

function responsesEvents(translator: ChatStreamToResponses): StreamTranslation {
  const wrap = (events: { type: string; data: JsonObject }[]): StreamEvent[] => events.map((event) => ({ payload: event.data, eventName: event.type }));
  return { push: (payload) => wrap(translator.push(payload)), finish: () => wrap(translator.finish()) };
}

/** The id a translated response carries: one per client request, so a re-issued request continues the same response. */
export function translatedResponseId(requestId: string): string {
  return `resp_${requestId.replace(/^hr_/, '').replace(/[^A-Za-z0-9]/g, '')}`;
}

function responseEcho(context: TranslationContext): ResponseEcho {
  const body = context.clientBody;
  const previous = body['previous_response_id'];
  return {
    id: translatedResponseId(context.requestId),
    createdAt: Math.floor(context.receivedAt / 1000),
    model: context.model,
    body,
    previousResponseId: typeof previous === 'string' ? previous : undefined,
    store: body['store'] !== false,
  };
}

function customToolNames(body: JsonObject): Set<string> {
  const names = new Set<string>();
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (isJsonObject(tool) && tool['type'] === 'custom' && typeof tool['name'] === 'string') names.add(tool['name']);
  }
  return names;
}

function noTranslation(from: ApiFormat, to: ApiFormat): GatewayError {
  return new GatewayError('internal', `no translation from ${from} to ${to}`);
}

/** The format a provider is sent: the client's own when the provider speaks it natively, else its primary one. */
export function upstreamFormat(client: ApiFormat, provider: { format: ApiFormat; alsoSpeaks?: readonly ApiFormat[] }): ApiFormat {
  return client === provider.format || (provider.alsoSpeaks ?? []).includes(client) ? client : provider.format;
}
