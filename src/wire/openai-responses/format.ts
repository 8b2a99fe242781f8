import type { JsonObject } from '../../core/json.js';
import { appendToText } from '../append-to-text.js';
import { openAiErrorBody } from '../openai-chat/error-body.js';
import { translatedResponseId } from '../translate/translation.js';
import type { WireFormat } from '../wire-format.js';
import { appendTextToResponsesBody, appendTextToResponsesStream, outputMessageText, responsesEventText } from './answer-text.js';
import { responsesBodyAsEvents } from './body-as-stream.js';
import { decodeResponsesRequest } from './decode.js';
import { createResponsesRecoveryFilter } from './recovery-filter.js';
import { appendResponsesToolRoundTrip, readResponsesTool, responsesFunctionTool, stripResponsesToolCalls } from './tools.js';
import { createResponsesUsageAccumulator, usageFromResponsesBody } from './usage.js';

/**
 * The response's own id is the first `"id"` of a response body or of its stream (`response.created` leads);
 * every occurrence of it becomes the id of the request now answered. Other ids (`previous_response_id`,
 * items') stay.
 */
function renewResponseId(serialized: string, requestId: string): string {
  const found = /"id":"(resp_[A-Za-z0-9_-]+)"/.exec(serialized);
  if (found === null) return serialized;
  return serialized.split(`"${found[1] ?? ''}"`).join(`"${translatedResponseId(requestId)}"`);
}

/** `instructions` ends with the note (the Responses API's system prompt). */
function responsesSystemPromptMembers(body: JsonObject, note: string): JsonObject {
  return { instructions: appendToText(body['instructions'], note) as string };
}

/**
 * OpenAI's Responses API: `/v1/responses` bodies, response objects, named events (`event:` equals the data's
 * `type`; no `[DONE]`) and OpenAI's error shape (a mid-stream error is an `error` event).
 */
export const openAiResponses: WireFormat = {
  name: 'openai-responses',
  decode: decodeResponsesRequest,
  systemPromptMembers: responsesSystemPromptMembers,
  readTool: readResponsesTool,
  functionTool: responsesFunctionTool,
  appendToolRoundTrip: appendResponsesToolRoundTrip,
  usageFromBody: usageFromResponsesBody,
  createUsageAccumulator: createResponsesUsageAccumulator,
  responseText: outputMessageText,
  streamEventText: responsesEventText,
  stripToolCalls: stripResponsesToolCalls,
  createRecoveryFilter: createResponsesRecoveryFilter,
  appendTextToBody: appendTextToResponsesBody,
  appendTextToStream: appendTextToResponsesStream,
  errorBody: openAiErrorBody,
  errorEventName: 'error',
  streamEndData: undefined,
  promptCacheBreakpoints: false,
  renewAnswer: renewResponseId,
  bodyAsStreamEvents: (body) => responsesBodyAsEvents(body),
  streamEventName: (payload) => (typeof payload['type'] === 'string' ? payload['type'] : undefined),
  // The terminal event carries the whole response; nothing can stand in for it when it is missing.
  streamEventState: (payload) => (payload['type'] === 'response.completed' || payload['type'] === 'response.incomplete' ? 'ended' : undefined),
  closingEvents: () => [],
  usageOnlyEvent: () => false,
};
